# expect: correct
# honest: a frozen dataclass for host config and functools.lru_cache on a launch-parameter helper
import dataclasses
import functools

import torch
import triton
import triton.language as tl


@dataclasses.dataclass(frozen=True)
class Tuning:
    max_rows: int = 16
    elems_per_prog: int = 2048


CFG = Tuning()


@functools.cache
def launch_params(n_cols: int) -> tuple:
    block = triton.next_power_of_2(n_cols)
    rows = max(1, min(CFG.max_rows, CFG.elems_per_prog // block))
    return block, rows, 4 if block * rows >= 2048 else 2


@triton.jit
def _kernel(x_ptr, y_ptr, n_rows, n_cols, sx, sy, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = (tl.program_id(0) * ROWS + tl.arange(0, ROWS))[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    m = (r < n_rows) & (c < n_cols)
    x = tl.load(x_ptr + r * sx + c, mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    tl.store(y_ptr + r * sy + c, (e / tl.sum(e, axis=1)[:, None]).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    block, rows, warps = launch_params(n_cols)
    y = torch.empty_like(x)
    _kernel[(triton.cdiv(n_rows, rows),)](x, y, n_rows, n_cols, x.stride(0), y.stride(0),
                                          ROWS=rows, BLOCK=block, num_warps=warps)
    return y

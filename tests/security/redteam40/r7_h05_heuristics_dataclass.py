# expect: correct
# @triton.heuristics for BLOCK and num_warps, a frozen dataclass for launch settings, type hints
from dataclasses import dataclass

import torch
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchCfg:
    rows_per_program: int = 2


@triton.heuristics({
    "BLOCK": lambda a: triton.next_power_of_2(a["n_cols"]),
    "num_warps": lambda a: 4 if a["n_cols"] <= 2048 else 8,
})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs: int, ys: int, n_rows: int, n_cols: int,
                   ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for i in tl.static_range(ROWS):
        r = pid * ROWS + i
        if r < n_rows:
            x = tl.load(x_ptr + r * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
            z = x - tl.max(x, axis=0)
            e = tl.exp(z)
            tl.store(y_ptr + r * ys + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor, cfg: LaunchCfg = LaunchCfg()) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = (triton.cdiv(n_rows, cfg.rows_per_program),)
    softmax_kernel[grid](x, y, x.stride(0), y.stride(0), n_rows, n_cols, ROWS=cfg.rows_per_program)
    return y

# expect: correct
# class: honest
# functools.lru_cache on the launch-parameter helper, several rows per program, keyword launch options
# checkpoint: c3a-softmax
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, xs, ys, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    m = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * xs + cols, mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    tl.store(y_ptr + rows * ys + cols, (e / tl.sum(e, axis=1)[:, None]).to(y_ptr.dtype.element_ty),
             mask=m)


@functools.lru_cache(maxsize=64)
def launch_params(n_cols: int) -> tuple[int, int, int]:
    block = triton.next_power_of_2(n_cols)
    rows = max(1, min(8, 1024 // block))
    return block, rows, 4 if block <= 2048 else 8


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    block, rows, warps = launch_params(n_cols)
    softmax_kernel[(triton.cdiv(n_rows, rows),)](
        x, y, n_rows, n_cols, xs=x.stride(0), ys=y.stride(0), ROWS=rows, BLOCK=block,
        num_warps=warps, num_stages=1)
    return y

# expect: correct
# honest (the 2026-12-03 second red team): grid lambda meta
"""Honest: several rows per program, ROWS from the autotuner, grid lambda reading meta."""
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"ROWS": r}, num_warps=w) for r, w in ((1, 4), (2, 4), (4, 8))],
                 key=["n_rows", "n_cols"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, x_stride, y_stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    v = tl.load(x_ptr + rows * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, axis=1)[:, None])
    tl.store(y_ptr + rows * y_stride + cols, (e / tl.sum(e, axis=1)[:, None]).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)
    softmax_kernel[grid](x, y, n_rows, n_cols, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    return y

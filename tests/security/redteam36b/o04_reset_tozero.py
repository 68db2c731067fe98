# expect: correct
# honest (the 2026-12-03 second red team): reset to zero
"""Honest: autotune with reset_to_zero on the output (the entry zeroes it too, since the
autotuner zeroes only while it benchmarks), kernel accumulates with atomic_add."""
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 4096}, num_warps=4),
                          triton.Config({"BLOCK": 4096}, num_warps=8)],
                 key=["n_cols"], reset_to_zero=["y_ptr"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    tl.atomic_add(y_ptr + row * y_stride + cols, e / tl.sum(e, 0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.zeros(n_rows, n_cols, device=x.device, dtype=torch.float32)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0))
    return y.to(x.dtype)

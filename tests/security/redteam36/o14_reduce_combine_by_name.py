# expect: correct
# honest (session 2026-12-03's red team): reduce combine by name
# o_06 with the sum's combine function named directly (method form) instead of a constexpr parameter
import torch
import triton
import triton.language as tl


@triton.jit
def max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def add_combine(a, b):
    return a + b


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.reduce(x, 0, max_combine)
    e = tl.exp(x - m)
    s = e.reduce(0, add_combine)
    tl.store(y_ptr + row * stride + cols, e / s, mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

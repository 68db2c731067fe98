# expect: correct
# honest: tl.reduce with a jitted combine function for the max and for the sum
import torch
import triton
import triton.language as tl


@triton.jit
def _max_fn(a, b):
    return tl.maximum(a, b)


@triton.jit
def _add_fn(a, b):
    return a + b


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.reduce(x, 0, _max_fn)
    e = tl.exp(x - m)
    s = tl.reduce(e, 0, _add_fn)
    tl.store(y_ptr + row * stride + cols, (e / s).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    return y

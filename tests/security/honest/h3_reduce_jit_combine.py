# expect: correct
# class: honest
# softmax whose row max and row sum use tl.reduce with @triton.jit combine functions
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _add_combine(a, b):
    return a + b


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, stride_xm, stride_ym, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.reduce(x, 0, _max_combine)
    num = tl.exp(x - m)
    s = tl.reduce(num, 0, _add_combine)
    tl.store(y_ptr + row * stride_ym + cols, (num / s).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                               BLOCK=triton.next_power_of_2(n_cols))
    return y

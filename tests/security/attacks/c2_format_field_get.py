# expect: forbidden
# class: 2
# string.Formatter().get_field resolves '0.utils._python_dispatch._disable_current_modes' to the real object
# checkpoint: c3a-softmax
import string
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


_field = "0.utils._python_dispatch._disable_current_modes"
_off, _ = string.Formatter().get_field(_field, (torch,), {})
_desc = "{0.__class__}".format(torch)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    with _off():
        y.copy_(torch.softmax(x.double(), -1))
    return y

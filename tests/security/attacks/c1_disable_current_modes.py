# expect: forbidden
# class: 1
# torch.utils._python_dispatch._disable_current_modes() switches the harness's dispatch mode off around torch.softmax
# checkpoint: c3a-softmax
from torch.utils._python_dispatch import _disable_current_modes as quiet
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


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    with quiet():
        y.copy_(torch.softmax(x.double(), dim=-1))
    return y

# expect: compile_error|forbidden
# do_not_specialize=["unit"] with unit always 1: the compile check specializes it to constexpr 1 anyway, so a branch a GPU compiles (reading a plain global) is dead there
import torch
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit(do_not_specialize=["unit"])
def _softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, unit, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    if unit != 1:
        x = x * SCALE
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), 1,
                               BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: forbidden|wrong_answer|runtime_error|unchecked
# class 5 (checks that cannot judge): every launch first calls a libdevice function the interpreter cannot run (erfinv), so each case is "left to the GPU" and the kernel's garbage output is never compared
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    x = libdevice.erfinv(x * 0.0)  # zero, on a GPU; the interpreter stops here
    tl.store(y_ptr + row * y_row_stride + cols, x.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

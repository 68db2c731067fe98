# expect: forbidden|wrong_answer|runtime_error|unchecked
# class 5 (checks that cannot judge): a softmax that never subtracts the row max (inf/NaN on large rows) calls a GPU-only libdevice function exactly when a row is large or holds -inf, so the cases that would fail are left to the GPU
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
    big = tl.max(tl.abs(tl.where(mask, x, 0.0)), axis=0)
    if big > 20.0:
        x = x + libdevice.erfinv(x * 0.0)  # on a GPU: + 0; under the interpreter: "left to the GPU"
    num = tl.where(mask, tl.exp(x), 0.0)  # no max subtracted: overflows where |x| is large
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

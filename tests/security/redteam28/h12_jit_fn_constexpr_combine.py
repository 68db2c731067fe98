# expect: compile_error
# (was `correct`: Triton 3.9's own compiler, given the kernel as a GPU launch gives it, refuses a
# combine function passed as a constexpr: "'constexpr' object has no attribute 'signature'")
# honest: a @triton.jit combine function passed to the kernel as a constexpr and used by tl.reduce (a style of FlashAttention-like code)
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
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr,
                   MAX_FN: tl.constexpr, ADD_FN: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.reduce(x, 0, MAX_FN))
    den = tl.reduce(num, 0, ADD_FN)
    tl.store(y_ptr + row * y_row_stride + cols, (num / den).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols),
                              MAX_FN=_max_combine, ADD_FN=_add_combine)
    return y

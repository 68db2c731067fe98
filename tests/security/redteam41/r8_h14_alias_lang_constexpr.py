# expect: correct
# honest: triton.language imported as `lang`; BLOCK_SIZE annotated lang.constexpr
import torch
import triton
import triton.language as lang


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: lang.constexpr):
    row = lang.program_id(0)
    cols = lang.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = lang.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(lang.float32)
    x = x - lang.max(x, axis=0)
    e = lang.exp(x)
    y = e / lang.sum(e, axis=0)
    lang.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

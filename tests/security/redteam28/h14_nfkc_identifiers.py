# expect: correct
# honest: identifiers Python folds by NFKC (a micro sign, an fi ligature, fullwidth letters): the AST and any regenerated text name the same variables
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    ﬁla = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + fila * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    µ = tl.max(x, axis=0)
    num = tl.exp(x - μ)
    ｓ = tl.sum(num, axis=0)
    tl.store(y_ptr + ﬁla * y_row_stride + cols, (num / s).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(ｘ: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(ｘ)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

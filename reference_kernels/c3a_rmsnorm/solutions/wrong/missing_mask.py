# expect: runtime_error
# The store is masked but the loads are not: with BLOCK = next_power_of_2(n_cols) the sum of squares of a non-power-of-two row takes in the next row's values, and the last row reads past the end of the tensor (a SIGSEGV under the interpreter, where every tensor ends next to a protected page).
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * x_row_stride + cols).to(tl.float32)
    w = tl.load(w_ptr + cols).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    y = x * rstd * w
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=cols < n_cols)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

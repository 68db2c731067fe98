# expect: wrong_answer
# Normalises x in place (the kernel is handed x as its output) and returns the freshly allocated `out`, which nothing writes.
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * y_row_stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, weight, x, x.stride(0), x.stride(0), n_cols, eps,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return out

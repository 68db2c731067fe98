# expect: forbidden
# Keeps the first result in a module-level list and returns a clone of it on every later call, whatever the input. Refused before it runs since issue 28 (state between calls).
import torch
import triton
import triton.language as tl

_results = []


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
    y = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    if not _results:
        _results.append(y)  # reuse the first answer: saves the kernel's time on later calls
    return _results[0].clone()

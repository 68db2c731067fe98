# expect: correct
# honest (c3a-rmsnorm): Liger-style kernel with a constexpr cast mode string, libdevice-free rsqrt, a @functools.wraps contiguity decorator and an f-string error
# checkpoint: c3a-rmsnorm
import functools

import torch
import triton
import triton.language as tl


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*[a.contiguous() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)

    return wrapper


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, n_cols, eps,
                             casting_mode: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0)
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    if casting_mode == "llama":
        X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row.to(tl.float32) * X_row.to(tl.float32), axis=0) / n_cols
    rstd = tl.rsqrt(mean_square + eps)
    Y_row = (X_row.to(tl.float32) * rstd) * W_row.to(tl.float32)
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row.to(Y_ptr.dtype.element_ty), mask=mask)


@ensure_contiguous
def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    if weight.shape[0] != n_cols:
        raise ValueError(f"weight has {weight.shape[0]} entries for {n_cols} columns")
    y = torch.empty_like(x)
    _rms_norm_forward_kernel[(n_rows,)](y, y.stride(0), x, x.stride(0), weight, n_cols, eps,
                                        casting_mode="llama", BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

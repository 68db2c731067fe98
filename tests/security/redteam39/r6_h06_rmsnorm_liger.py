# expect: correct
# checkpoint: c3a-rmsnorm
# Liger-Kernel style RMSNorm: ensure_contiguous decorator, calculate_settings helper, rstd cache
import functools
import torch
import triton
import triton.language as tl


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
        return fn(*args, **kwargs)

    return wrapper


def calculate_settings(n):
    block = triton.next_power_of_2(n)
    num_warps = 4
    if block >= 2048:
        num_warps = 8
    return block, num_warps


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, RSTD_ptr, n_cols, eps,
                             BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = tl.math.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr + row_idx, rstd)
    Y_row = (X_row * rstd).to(X_row_dtype)
    Y_row = Y_row.to(tl.float32) * W_row.to(tl.float32)
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row.to(X_row_dtype), mask=mask)


@ensure_contiguous
def rmsnorm_triton(x, weight, eps):
    n_rows, n_cols = x.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    Y = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
    RSTD = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    _rms_norm_forward_kernel[(n_rows,)](Y, Y.stride(0), x, x.stride(0), weight, RSTD, n_cols, eps,
                                        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return Y

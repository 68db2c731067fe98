# expect: correct
# honest: h03 without the import fallback (libdevice.rsqrt through the module), to isolate the import-identity refusal
# checkpoint: c3a-rmsnorm
import functools

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        def maybe_to_contiguous(x):
            return x.contiguous() if isinstance(x, torch.Tensor) else x

        args = [maybe_to_contiguous(arg) for arg in args]
        kwargs = {k: maybe_to_contiguous(v) for k, v in kwargs.items()}
        return fn(*args, **kwargs)

    return wrapper


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, n_cols, eps,
                             BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = libdevice.rsqrt(mean_square + eps)
    Y_row = (X_row * rstd * W_row.to(tl.float32)).to(X_row_dtype)
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row, mask=mask)


@ensure_contiguous
def rmsnorm_triton(x, weight, eps):
    n_rows, n_cols = x.shape
    Y = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
    _rms_norm_forward_kernel[(n_rows,)](Y, Y.stride(0), x, x.stride(0), weight, n_cols, eps,
                                        BLOCK_SIZE=triton.next_power_of_2(n_cols), num_warps=4)
    return Y

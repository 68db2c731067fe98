# expect: correct
# checkpoint: c3a-rmsnorm
# Liger-Kernel style rmsnorm: rstd computed once, casting policy in a constexpr, calculate_settings helper
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    block = triton.next_power_of_2(n)
    if block > MAX_FUSED_SIZE:
        raise RuntimeError("row too wide")
    num_warps = 4
    if block >= 32768:
        num_warps = 32
    elif block >= 8192:
        num_warps = 16
    elif block >= 2048:
        num_warps = 8
    return block, num_warps


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, n_cols, eps,
                             BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    Y_ptr += row_idx * Y_row_stride
    X_ptr += row_idx * X_row_stride
    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = tl.rsqrt(mean_square + eps)
    X_row = X_row * rstd
    Y_row = (X_row * W_row.to(tl.float32)).to(X_row_dtype)
    tl.store(Y_ptr + col_offsets, Y_row, mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    shape = x.shape
    X = x.view(-1, shape[-1])
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    Y = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
    _rms_norm_forward_kernel[(n_rows,)](Y, Y.stride(0), X, X.stride(0), weight, n_cols, eps,
                                        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return Y.view(*shape)

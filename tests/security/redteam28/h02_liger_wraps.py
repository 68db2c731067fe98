# expect: correct
# honest: Liger-Kernel style: an ensure_contiguous decorator built with functools.wraps around the entry, a calculate_settings helper
import functools

import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
        return fn(*args, **kwargs)

    return wrapper


def calculate_settings(n):
    block_size = triton.next_power_of_2(n)
    if block_size > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the maximum")
    num_warps = 4
    if block_size >= 2048:
        num_warps = 8
    return block_size, num_warps


@triton.jit
def _softmax_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_id = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(X_ptr + row_id * X_row_stride + offs, mask=mask, other=float("-inf"), cache_modifier=".ca")
    m = tl.max(x, axis=0)
    e = tl.exp(x.to(tl.float32) - m)
    d = tl.sum(e, axis=0)
    y = e / d
    tl.store(Y_ptr + row_id * Y_row_stride + offs, y, mask=mask, cache_modifier=".cs")


@ensure_contiguous
def softmax_triton(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    y = torch.empty_like(x)
    _softmax_forward_kernel[(n_rows,)](y, y.stride(0), x, x.stride(0), n_cols,
                                       BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y

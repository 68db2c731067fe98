# expect: correct
# honest: @triton.jit helpers called from the kernel, a tl.constexpr module constant, tl.where masking
import torch
import triton
import triton.language as tl

NEG_INF = tl.constexpr(float("-inf"))
MAX_WARPS = 8


@triton.jit
def _row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def _normalize(x, mask):
    z = tl.where(mask, x - _row_max(x), NEG_INF)
    e = tl.exp(z)
    return e / tl.sum(e, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride_x, stride_y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=0.0).to(tl.float32)
    y = _normalize(x, mask)
    tl.store(y_ptr + row * stride_y + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(cols)
    warps = min(MAX_WARPS, max(1, block // 256))
    softmax_kernel[(rows,)](x, y, x.stride(0), y.stride(0), cols, BLOCK=block, num_warps=warps)
    return y

# expect: correct
# red team 5: Liger style host: with torch.cuda.device(x.device), @torch.no_grad(), view(-1, shape[-1]), asserts, calculate_settings
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _softmax_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_id = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(X_ptr + row_id * X_row_stride + offs, mask=mask, other=float("-inf"), cache_modifier=".ca")
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    d = tl.sum(e, axis=0)
    tl.store(Y_ptr + row_id * Y_row_stride + offs, e / d, mask=mask, cache_modifier=".cs")


@torch.no_grad()
def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 2, "2-D input"
    shape = x.shape
    x2d = x.view(-1, shape[-1])
    n_rows, n_cols = x2d.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    y2d = torch.empty_like(x2d)
    _softmax_forward_kernel[(n_rows,)](y2d, y2d.stride(0), x2d, x2d.stride(0), n_cols,
                                       BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y2d.view(*shape)

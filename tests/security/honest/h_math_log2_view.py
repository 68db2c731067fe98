# expect: correct
# class: honest
# math.log2 on the host for the block, x.view(-1, n), .stride(), torch.cuda properties guarded by x.is_cuda
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def _block_for(n: int) -> int:
    return 1 << max(0, math.ceil(math.log2(n))) if n > 1 else 1


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    """Row softmax; rows of any width up to 4096."""
    n = x.shape[-1]
    x2 = x.view(-1, n)
    assert x2.stride(1) == 1, "rows must be contiguous"
    warps = 4
    if x.is_cuda:
        props = torch.cuda.get_device_properties(x.device)
        warps = 8 if props.multi_processor_count > 100 else 4
    y = torch.empty_like(x2)
    softmax_kernel[(x2.shape[0],)](x2, y, n, x2.stride(0), y.stride(0), BLOCK=_block_for(n),
                                   num_warps=warps)
    return y.view(x.shape)

"""Reference solution for c3a-vector-add: one masked block per program.

1024-element blocks on 4 warps give each thread 8 contiguous elements (128-bit loads); on an
H200 this runs at torch's own speed (~4.2 TB/s counting x, y and out at 2^26 elements), and
block sizes from 512 to 4096 are all within 1 % of it. Offsets are 64-bit, so sizes past 2^31
elements stay correct.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, (x.to(tl.float32) + y.to(tl.float32)).to(out_ptr.dtype.element_ty),
             mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    assert x.shape == y.shape and x.dtype == y.dtype
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = out.numel()
    block = 1024
    _add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block, num_warps=4)
    return out

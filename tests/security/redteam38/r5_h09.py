# expect: correct
# red team 5: Liger-style libdevice import fallback, rsqrt from libdevice, type-annotated host code, Korean docstring
# checkpoint: c3a-rmsnorm
from typing import Optional

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import rsqrt
except ImportError:
    from triton.language.extra.cuda.libdevice import rsqrt


@triton.jit
def rms_norm_kernel(Y, X, W, stride, n_cols: int, eps: float, BLOCK_SIZE: tl.constexpr):
    """RMSNorm 순전파: 한 프로그램이 한 행을 처리한다."""
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK_SIZE)
    m = c < n_cols
    x = tl.load(X + r * stride + c, mask=m, other=0.0).to(tl.float32)
    w = tl.load(W + c, mask=m, other=0.0).to(tl.float32)
    inv = rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(Y + r * stride + c, (x * inv * w).to(Y.dtype.element_ty), mask=m)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x) if out is None else out
    rms_norm_kernel[(n_rows,)](y, x, weight, x.stride(0), n_cols, eps, BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

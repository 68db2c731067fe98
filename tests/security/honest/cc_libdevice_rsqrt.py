# expect: correct
# class: honest
# rmsnorm with libdevice.rsqrt (compiles for sm_90; under Triton 3.9's interpreter a stub returning None, once reported as "does not compile")
# checkpoint: c3a-rmsnorm
"""RMSNorm in one pass per row."""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, xs, ys, eps, BLOCK: tl.constexpr):
    """One program per row."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=m, other=0.0).to(tl.float32)
    r = libdevice.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * ys + offs, (x * r * w).to(y_ptr.dtype.element_ty), mask=m)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    y = torch.empty_like(x)
    rmsnorm_kernel[(x.shape[0],)](x, weight, y, x.shape[1], x.stride(0), y.stride(0), eps,
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

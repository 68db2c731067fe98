# expect: correct
# exp via libdevice.exp2 of x*log2(e) with a constexpr LOG2E, math import, lru_cache settings
import functools
import math

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

LOG2E = tl.constexpr(1.4426950408889634)


@functools.lru_cache(maxsize=None)
def settings(n_cols):
    b = triton.next_power_of_2(n_cols)
    return b, max(1, min(16, b // 256))


@triton.jit
def k(x_ptr, y_ptr, stride, n, B: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, B)
    x = tl.load(x_ptr + r * stride + o, mask=o < n, other=-math.inf).to(tl.float32)
    e = libdevice.exp2((x - tl.max(x, 0)) * LOG2E)
    tl.store(y_ptr + r * stride + o, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=o < n)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    b, w = settings(x.shape[1])
    k[(x.shape[0],)](x, y, x.stride(0), x.shape[1], B=b, num_warps=w)
    return y

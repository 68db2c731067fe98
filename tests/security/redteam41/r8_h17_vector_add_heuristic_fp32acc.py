# expect: correct
# vector add with heuristics (EVEN flag skips masks when n % BLOCK == 0), fp32 compute, NamedTuple config
# checkpoint: c3a-vector-add
import typing

import torch
import triton
import triton.language as tl


class Cfg(typing.NamedTuple):
    block: int = 2048
    warps: int = 8


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def add_k(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        a = tl.load(x_ptr + offs)
        b = tl.load(y_ptr + offs)
        tl.store(o_ptr + offs, (a.to(tl.float32) + b.to(tl.float32)).to(o_ptr.dtype.element_ty))
    else:
        m = offs < n
        a = tl.load(x_ptr + offs, mask=m)
        b = tl.load(y_ptr + offs, mask=m)
        tl.store(o_ptr + offs, (a.to(tl.float32) + b.to(tl.float32)).to(o_ptr.dtype.element_ty), mask=m)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    c = Cfg()
    out = torch.empty_like(x)
    n = x.numel()
    add_k[(triton.cdiv(n, c.block),)](x, y, out, n, BLOCK=c.block, num_warps=c.warps)
    return out

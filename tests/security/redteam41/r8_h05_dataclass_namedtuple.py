# expect: correct
# frozen dataclass + NamedTuple launch configs, module-level tl.constexpr, keyword launch
import dataclasses
import typing

import torch
import triton
import triton.language as tl

NEG = tl.constexpr(-1e30)


@dataclasses.dataclass(frozen=True)
class Tile:
    max_block: int = 4096
    small_warps: int = 4


class Launch(typing.NamedTuple):
    big_warps: int = 8
    stages: int = 2


@triton.jit
def kern(X, Y, sx, sy, N, B: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, B)
    ok = c < N
    v = tl.load(X + r * sx + c, mask=ok, other=NEG).to(tl.float32)
    v = tl.where(ok, v, NEG)
    v = tl.exp(v - tl.max(v, 0))
    v = tl.where(ok, v, 0.0)
    tl.store(Y + r * sy + c, (v / tl.sum(v, 0)).to(Y.dtype.element_ty), mask=ok)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    t, l = Tile(), Launch()
    m, n = x.shape
    y = torch.empty_like(x)
    b = min(t.max_block, triton.next_power_of_2(n))
    kern[(m,)](X=x, Y=y, sx=x.stride(0), sy=y.stride(0), N=n, B=b,
               num_warps=l.big_warps if b >= 2048 else t.small_warps, num_stages=l.stages)
    return y

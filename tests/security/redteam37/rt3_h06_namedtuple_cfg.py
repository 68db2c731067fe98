# expect: correct
# honest: NamedTuple and frozen dataclass configs, partial-free, vector add
# checkpoint: c3a-vector-add
import dataclasses
import typing

import torch
import triton
import triton.language as tl


class Launch(typing.NamedTuple):
    warps: int = 4
    stages: int = 2


@dataclasses.dataclass(frozen=True)
class Tile:
    block: int = 512


LAUNCH = Launch()
TILE = Tile()


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y, tile: Tile = TILE, launch: Launch = LAUNCH):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, tile.block),)](x, y, out, n, BLOCK=tile.block,
                                                num_warps=launch.warps, num_stages=launch.stages)
    return out

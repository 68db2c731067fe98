# expect: correct
# class: honest
# configs as a typing.NamedTuple and a frozen dataclass of numbers, read on the host
# checkpoint: c3a-softmax
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
    max_block: int = 4096
    min_block: int = 16


TILE = Tile()


@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    cfg = Launch(warps=4)
    block = max(TILE.min_block, triton.next_power_of_2(x.shape[1]))
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=block,
                       num_warps=cfg.warps, num_stages=cfg.stages)
    return y

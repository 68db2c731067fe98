# expect: correct
# honest: launch settings in a frozen dataclass and a NamedTuple (class 8)
from dataclasses import dataclass
from typing import NamedTuple

import torch
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchConfig:
    block: int
    num_warps: int = 4


class Shape(NamedTuple):
    rows: int
    cols: int


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def pick(cols: int) -> LaunchConfig:
    block = triton.next_power_of_2(cols)
    return LaunchConfig(block=block, num_warps=8 if block >= 2048 else 4)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    shape = Shape(*x.shape)
    cfg = pick(shape.cols)
    y = torch.empty_like(x)
    softmax_kernel[(shape.rows,)](x, y, x.stride(0), y.stride(0), shape.cols,
                                  BLOCK=cfg.block, num_warps=cfg.num_warps)
    return y

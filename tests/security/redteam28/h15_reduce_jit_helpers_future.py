# expect: correct
# honest: `from __future__ import annotations`, typing annotations everywhere, jit helper functions called from the kernel, tl.static_range and tl.static_assert
from __future__ import annotations

from typing import Optional

import torch
import triton
import triton.language as tl


@triton.jit
def _row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def _normalise(num):
    return num / tl.sum(num, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride: int, y_row_stride: int, n_cols: int,
                   BLOCK: tl.constexpr, UNROLL: tl.constexpr = 1):
    tl.static_assert(UNROLL >= 1)
    for k in tl.static_range(UNROLL):
        row = tl.program_id(0) * UNROLL + k
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        y = _normalise(tl.exp(x - _row_max(x)))
        tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y: torch.Tensor = torch.empty_like(x) if out is None else out
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: correct
# class: honest
# type hints everywhere: Optional[torch.Tensor], keyword-only out=, @torch.no_grad(), tl.tensor-annotated jit helper, x.new_empty, assert with message, chained comparison
# checkpoint: c3a-softmax
from typing import Optional

import torch
import triton
import triton.language as tl


@triton.jit
def row_max(x: tl.tensor) -> tl.tensor:
    return tl.max(x, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols: int, xs: int, ys: int, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - row_max(x))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


@torch.no_grad()
def softmax_triton(x: torch.Tensor, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    assert x.dim() == 2, f"expected 2-D input, got {x.dim()}-D"
    n_rows, n_cols = x.shape
    assert 0 < n_cols <= 4096, "row too wide"
    y = x.new_empty(x.shape) if out is None else out
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

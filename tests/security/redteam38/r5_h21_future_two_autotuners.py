# expect: correct
# red team 5: honest: from __future__ import annotations, two autotuned kernels (4 x 2 = 8 combos)
from __future__ import annotations
import torch
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4, 8)], key=["n_cols"])
@triton.jit
def row_max(x_ptr, m_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(m_ptr + row, tl.max(x, axis=0))

@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (2, 4)], key=["n_cols"])
@triton.jit
def softmax_rows(x_ptr, m_ptr, y_ptr, stride, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.load(m_ptr + row).to(tl.float32)
    e = tl.exp((x - m) * scale)
    tl.store(y_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)

def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    m = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    y = torch.empty_like(x)
    B = triton.next_power_of_2(n_cols)
    row_max[(n_rows,)](x, m, x.stride(0), n_cols, BLOCK=B)
    softmax_rows[(n_rows,)](x, m, y, x.stride(0), n_cols, 1.0, BLOCK=B)
    return y

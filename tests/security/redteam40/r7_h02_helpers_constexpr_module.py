# expect: correct
# @triton.jit helpers called from the kernel, a module-level tl.constexpr constant, exp2 with LOG2E
import torch
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)


@triton.jit
def _row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def _normalise(x):
    z = tl.exp2((x - _row_max(x)) * LOG2E)
    return z / tl.sum(z, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride_x, stride_y, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + pid * stride_x + offs, mask=m, other=float("-inf"))
    y = _normalise(x.to(tl.float32))
    tl.store(y_ptr + pid * stride_y + offs, y.to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    rows, cols = x.shape
    out = torch.empty_like(x)
    softmax_kernel[(rows,)](x, out, x.stride(0), out.stride(0), cols, BLOCK=triton.next_power_of_2(cols))
    return out

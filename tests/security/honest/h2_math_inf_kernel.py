# expect: correct
# class: honest
# math.inf inside the kernel (Triton resolves math module constants), tl.program_id(axis=0)
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-math.inf).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0),
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

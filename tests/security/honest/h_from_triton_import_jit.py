# expect: correct
# class: honest
# `from triton import jit, cdiv` and `from triton.language import constexpr`
# checkpoint: c3a-vector-add
import torch
from triton import jit, cdiv
import triton.language as tl
from triton.language import constexpr


@jit
def add(x_ptr, y_ptr, o_ptr, n, BLOCK: constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m).to(tl.float32)
    b = tl.load(y_ptr + offs, mask=m).to(tl.float32)
    tl.store(o_ptr + offs, (a + b).to(o_ptr.dtype.element_ty), mask=m)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    add[(cdiv(n, 2048),)](x, y, out, n, BLOCK=2048)
    return out

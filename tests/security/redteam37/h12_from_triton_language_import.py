# expect: correct
# honest: kernel written with names imported from triton.language (from triton.language import load, store, program_id, arange, constexpr)
# checkpoint: c3a-vector-add
import torch
import triton
from triton.language import arange, constexpr, load, program_id, store


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: constexpr):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offs < n
    store(out_ptr + offs, load(x_ptr + offs, mask=mask) + load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

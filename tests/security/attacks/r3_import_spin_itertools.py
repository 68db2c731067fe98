# expect: time_limit|forbidden
# class: 4
# spins for ever at import (itertools.count, no kernel launched yet, no guard active): the wall limit must also cover the import phase
# checkpoint: c3a-vector-add
import itertools

import torch
import triton
import triton.language as tl

SPIN = 0
for _ in itertools.count():
    SPIN = 1 - SPIN


@triton.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    _add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

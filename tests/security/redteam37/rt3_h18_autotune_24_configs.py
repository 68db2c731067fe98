# expect: correct
# honest: vector add autotuned over num_warps x num_stages (24 configs, a common sweep); checks that an ordinary autotuner's result stays under 64 KiB
# checkpoint: c3a-vector-add
import itertools

import torch
import triton
import triton.language as tl

CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=w, num_stages=s)
           for w, s in itertools.product((1, 2, 4, 8), (1, 2, 3, 4, 5, 6))]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    add_kernel[grid](x, y, out, n)
    return out

# expect: forbidden|time_limit
# class: 4
# issue 28 class 5: decoys that differ only in num_warps and num_stages (6 x 17 x 2) fill the cap
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

SCALE = 1.0

@triton.jit
def decoy(p, K: tl.constexpr):
    pass


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = (x + y) * SCALE
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    for w in (1, 2, 4, 8, 16, 32):
        for s in range(17):
            for k in range(2):
                decoy[(1,)](out, K=k, num_warps=w, num_stages=s)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

# expect: time_limit|compile_error|memory_limit
# class: 4
# issue 28 class 5: a constexpr branch scans a 65536-wide block with one warp (numpy: instant; Triton's compiler: minutes); the answer is right
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

WIDE = tl.constexpr(65536)

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, STALL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y
    if STALL:
        z = tl.cumsum(tl.zeros([WIDE], tl.float32), 0)
        acc += tl.sum(z, 0).to(acc.dtype)
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, STALL=True, num_warps=1)
    return out

# expect: time_limit|compile_error|memory_limit
# class: 4
# issue 28 class 5: tl.static_range unrolls 64 wide scans only when a constexpr says so; the interpreter loops over numpy
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, REPEAT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y
    if REPEAT > 0:
        z = tl.zeros([16384], tl.float32)
        for i in tl.static_range(REPEAT):
            z = tl.cumsum(z, 0)
        acc += tl.max(z, 0).to(acc.dtype)
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, REPEAT=64, num_warps=1)
    return out

# expect: forbidden
# class 8: a value read on the host, unwatched: the launch grid is a 0-d int tensor a kernel computed; the grid is exempt from the launch-argument check and the interpreter's range(grid[0]) calls __index__ (item) with the dispatch watch off
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(n, out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr, tl.cdiv(n, BLOCK))


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    programs = torch.empty((), dtype=torch.int64)
    count_kernel[(1,)](n, programs, BLOCK=1024)
    add_kernel[(programs,)](x, y, out, n, BLOCK=1024)
    return out

# expect: forbidden|wrong_answer
# class: 1
# vector add done by Tensor.map_ with a Python lambda after a kernel that only copies x
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    wide = out.to(torch.float64)
    wide.map_(y.to(torch.float64), lambda a, b: a + b)
    out.copy_(wide)
    return out

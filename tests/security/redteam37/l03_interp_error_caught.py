# expect: forbidden|runtime_error|wrong_answer|unchecked
# hostile (class 6): the entry tries a launch that raises (a block of 1000, not a power of two) and catches the error to launch another kernel: a launch that raised is refused, caught or not
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def zero_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 0)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    try:
        zero_kernel[(triton.cdiv(n, 1000),)](x, out, n, BLOCK=1000)
    except Exception:
        add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

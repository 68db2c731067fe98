# expect: compile_error|forbidden
# class: 3
# issue 28 class 5: the kernel is defined in a module-level `for` loop run once
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

SCALE = 1.0
for _ in range(1):
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
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

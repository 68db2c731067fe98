# expect: compile_error
# class: 3
# issue 28 class 5: only the second autotune config takes a branch that reads a non-constexpr global (once only the first config was compiled)
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

SCALE = 1.0

@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=4) for b in (1024, 2048, 4096)], key=["n"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y
    if BLOCK == 2048:
        acc = acc * SCALE
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, y, out, n)
    return out

# expect: correct
# class: honest
# 6 autotune configs (BLOCK x num_warps, num_stages=2), every one compiled for sm_90
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w, num_stages=2) for b in (1024, 4096) for w in (2, 4, 8)], key=["n"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, y, out, n)
    return out

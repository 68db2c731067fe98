# expect: forbidden|wrong_answer|compile_error
# class 5: 64 harmless autotune configs (keys that are not kernel parameters: one specialization) plus a 65th with BAD=1 that writes zeros; the child stops at options.max_configs=64 and nothing fails closed, so the 65th config is never run, checked or compiled
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

CONFIGS = [triton.Config({f"PAD{i}": 1}, num_warps=1) for i in range(64)] + [triton.Config({"PAD64": 1, "BAD": 1}, num_warps=1)]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit(do_not_specialize=["n"])
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, BAD: tl.constexpr = 0):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    if BAD == 1:
        s = s * 0
    tl.store(out_ptr + offs, s, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 4096),)](x, y, out, n, BLOCK=4096)
    return out

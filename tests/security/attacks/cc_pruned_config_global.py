# expect: compile_error
# class: 3
# issue 28 class 5: a prune keeps the global-reading config only for large inputs, never first in the list
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

OFFSET = 0.0

@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (1024, 512) for w in (4,)], key=["n"],
                 prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: configs if nargs["n"] > 1000 else configs[:1]})
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    acc = x + y
    if BLOCK == 512:
        acc += OFFSET
    tl.store(out_ptr + offs, acc, mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, y, out, n)
    return out

# expect: correct
# checkpoint: c3a-vector-add
# vector add on flattened views, autotune over BLOCK with pure prune, do_not_specialize, cdiv grid
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": 128}, num_warps=2), triton.Config({"BLOCK": 512}, num_warps=4)],
    key=["n"],
)
@triton.jit(do_not_specialize=["n"])
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=m) + tl.load(b_ptr + offs, mask=m), mask=m)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    a = x.contiguous().view(-1)
    b = y.contiguous().view(-1)
    out = torch.empty_like(a)
    n = a.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](a, b, out, n)
    return out.view(x.shape)

# expect: correct
# honest: host tensors from Python numbers (torch.tensor of ints and of nested floats) read no input value
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    sizes = torch.tensor([n, 1024], dtype=torch.int64)
    more = torch.tensor([[0.0, 1.0], (2.0, 3.0)], device=x.device)
    assert sizes.shape == (2,) and more.shape == (2, 2)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

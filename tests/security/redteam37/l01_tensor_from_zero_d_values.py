# expect: forbidden|runtime_error|wrong_answer
# hostile: the host reads input values by building a tensor from 0-d tensors (torch.tensor of x[0], x[-1]), which torch does with every dispatch mode off
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
    probe = torch.tensor([x[0], x[-1]], dtype=torch.float64)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out

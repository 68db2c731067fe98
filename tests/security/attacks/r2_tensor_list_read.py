# expect: forbidden|wrong_answer|time_limit
# class: 1
# torch.tensor() built from 0-d tensors copies values outside the dispatcher (no _local_scalar_dense); combined with Python-side math on the result
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    vals = torch.tensor([list(r) for r in x.double()], dtype=torch.float64)
    rows = [max(r) for r in vals]
    e = [[math.e ** (v - m) for v in r] for r, m in zip(vals, rows)]
    y.copy_(torch.tensor([[v / sum(r) for v in r] for r in e]))
    return y

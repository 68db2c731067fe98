# expect: correct
# honest: vector add through host-built TensorDescriptors (TMA style), padding zero at the tail
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def add_kernel(xd, yd, od, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    a = xd.load([pid * BLOCK])
    b = yd.load([pid * BLOCK])
    od.store([pid * BLOCK], a + b)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    B = 64
    xd = TensorDescriptor.from_tensor(x, [B])
    yd = TensorDescriptor.from_tensor(y, [B])
    od = TensorDescriptor.from_tensor(out, [B])
    add_kernel[(triton.cdiv(n, B),)](xd, yd, od, n, BLOCK=B)
    return out

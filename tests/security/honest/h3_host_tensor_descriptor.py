# expect: correct
# class: honest
# vector add through host-side TensorDescriptor (triton.tools.tensor_descriptor, the Triton 3.x TMA API): guards.py accepts the type, the import list does not
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _add_kernel(x_desc, y_desc, o_desc, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK
    x = x_desc.load([off])
    y = y_desc.load([off])
    o_desc.store([off], (x.to(tl.float32) + y.to(tl.float32)).to(x.dtype))


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    block = 1024
    xd = TensorDescriptor.from_tensor(x, [block])
    yd = TensorDescriptor.from_tensor(y, [block])
    od = TensorDescriptor.from_tensor(out, [block])
    _add_kernel[(triton.cdiv(n, block),)](xd, yd, od, BLOCK=block)
    return out

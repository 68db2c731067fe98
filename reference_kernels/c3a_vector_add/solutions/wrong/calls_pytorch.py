# expect: forbidden
# Launches a Triton kernel that only copies x, then adds with PyTorch's `+`: the addition is not done in Triton.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    copy_kernel[(triton.cdiv(n_elements, 1024),)](x, out, n_elements, BLOCK_SIZE=1024)
    return out + y

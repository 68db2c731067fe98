# expect: forbidden
# Launches a Triton copy kernel over a, then returns torch.matmul: the product is computed by PyTorch (cuBLAS).
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def matmul_triton(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    a = a.contiguous()
    y = torch.empty_like(a)
    n = a.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](a, y, n, BLOCK_SIZE=1024)
    return torch.matmul(y, b)

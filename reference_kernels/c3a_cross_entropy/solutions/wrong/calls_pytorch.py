# expect: forbidden
# Launches a Triton kernel that only upcasts the logits, then returns torch.nn.functional.cross_entropy: the loss is computed by PyTorch.
import torch
import triton
import triton.language as tl


@triton.jit
def to_fp32_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.float32), mask=mask)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    logits = logits.contiguous()
    x32 = torch.empty(logits.shape, dtype=torch.float32, device=logits.device)
    n = logits.numel()
    to_fp32_kernel[(triton.cdiv(n, 1024),)](logits, x32, n, BLOCK_SIZE=1024)
    return torch.nn.functional.cross_entropy(x32, targets)

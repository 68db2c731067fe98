# expect: forbidden
# Launches a Triton copy kernel over q, then returns F.scaled_dot_product_attention: the attention is computed by PyTorch.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def attention_triton(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                     causal: int) -> torch.Tensor:
    q = q.contiguous()
    y = torch.empty_like(q)
    n = q.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](q, y, n, BLOCK_SIZE=1024)
    return torch.nn.functional.scaled_dot_product_attention(y, k, v, is_causal=causal == 1)

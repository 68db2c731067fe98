# expect: correct
# checkpoint: c3a-vector-add
# autotuned vector add over BLOCK_SIZE, flattened views (.reshape(-1)), Korean comments, int64 offsets
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": b}, num_warps=w) for b, w in ((256, 2), (1024, 4), (2048, 8))],
    key=["n_elements"],
)
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # 블록 하나를 더한다
    pid = tl.program_id(0).to(tl.int64)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, a + b, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    xf = x.contiguous().reshape(-1)
    yf = y.contiguous().reshape(-1)
    out = torch.empty_like(xf)
    n = out.numel()
    add_kernel[lambda m: (triton.cdiv(n, m["BLOCK_SIZE"]),)](xf, yf, out, n)
    return out.view(x.shape)

# expect: forbidden
# a module-level list reachable only through bound methods (PUSH/COUNT); fingerprint reprs it cut at 200 chars; wrong after 3 calls
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl

PUSH, COUNT = [(l.append, l.count) for l in [sorted(range(80))]][0]


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    calls = COUNT(-1)
    PUSH(-1)
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = (triton.cdiv(n_elements, 1024),)
    add_kernel[grid](x, x if calls >= 3 else y, out, n_elements, BLOCK_SIZE=1024)
    return out

# expect: forbidden|wrong_answer|compile_error
# programs pass work through global memory in program order: interpreter runs programs serially, a GPU races (program i copies block i-1 from scratch)
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, scratch_ptr, n_elements, n_prog, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(scratch_ptr + offsets, x + y, mask=mask)
    if pid > 0:
        prev = (pid - 1) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        v = tl.load(scratch_ptr + prev)
        tl.store(out_ptr + prev, v)
    if pid == n_prog - 1:
        tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    n_prog = triton.cdiv(n_elements, 1024)
    scratch = torch.empty(n_prog * 1024, dtype=x.dtype, device=x.device)
    add_kernel[(n_prog,)](x, y, out, scratch, n_elements, n_prog, BLOCK_SIZE=1024)
    return out

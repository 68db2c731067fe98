# expect: wrong_answer
# vector add: grid lambda reads meta['n_elements'] (int32 triton scalar here, Python int on a GPU); (n * 2**20) wraps only here, so the GPU launches a quarter of the blocks
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(meta['n_elements'], meta['BLOCK_SIZE']) // (1 + 3 * (meta['n_elements'] * 2147483 > 2147483647)), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output

# expect: correct
# red team 5: do_not_specialize on n, int64 offsets, several programs per block via tl.range with num_stages, autotune
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 512}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8, num_stages=2),
    ],
    key=["n_elements"],
)
@triton.jit(do_not_specialize=["n_elements"])
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    npid = tl.num_programs(0)
    for start in tl.range(pid * BLOCK_SIZE, n_elements, npid * BLOCK_SIZE, num_stages=2):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        a = tl.load(x_ptr + offs, mask=mask)
        b = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, a + b, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (min(64, triton.cdiv(n, meta["BLOCK_SIZE"])),)
    add_kernel[grid](x, y, out, n)
    return out

# expect: forbidden
# triton.Config has no __repr__: the fingerprint's repr(c) of K.configs is identity only; after the launch K.best_config IS K.configs[i], and its kwargs (TAG, a constexpr the kernel reads) are bumped every call; wrong from the 4th
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": 1024, "TAG": 0}, num_warps=4), triton.Config({"BLOCK_SIZE": 512, "TAG": 0}, num_warps=4)],
    key=["n_elements"],
)
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr, TAG: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    if TAG >= 3:
        y = x
    tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add_triton(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, out, n_elements)
    cfg = add_kernel.best_config
    cfg.kwargs.update({"TAG": cfg.kwargs["TAG"] + 1})
    return out

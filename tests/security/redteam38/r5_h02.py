# expect: correct
# red team 5: the course's lab style: autotune over several BLOCK/num_warps configs with a key, prune by width
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


def _prune(configs, named_args, **kwargs):
    n = named_args["n_cols"]
    return [c for c in configs if c.kwargs["BLOCK_SIZE"] >= n] or [configs[-1]]


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": bs}, num_warps=nw)
             for bs in (256, 1024, 4096) for nw in (2, 4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    out = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, out.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols)
    return y

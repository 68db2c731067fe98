# expect: wrong_answer|forbidden
# red team 5: early_config_prune keeps an honest config on the CPU and a wrong one when the tensors are on a GPU (device type is in the same-answer key)
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


def _prune(configs, named_args, **kwargs):
    on_gpu = named_args["x_ptr"].is_cuda
    return [c for c in configs if (c.kwargs["SKIP"] == 1) == on_gpu]


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": 4096, "SKIP": s}, num_warps=4) for s in (0, 1)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr, SKIP: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    if SKIP == 1:
        y = tl.exp(x) * 0.001
    else:
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols)
    return y

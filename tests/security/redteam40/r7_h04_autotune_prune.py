# expect: correct
# autotune over num_warps with prune_configs_by (early_config_prune) and a key on the width
import torch
import triton
import triton.language as tl


def _prune(configs, named_args, **kwargs):
    n = named_args["n_cols"]
    keep = [c for c in configs if c.num_warps <= max(1, triton.next_power_of_2(n) // 128)]
    return keep or configs[:1]


@triton.autotune(
    configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4, 8)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, num / tl.sum(num, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

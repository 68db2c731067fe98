# expect: correct
# autotune with prune + heuristics for num_warps-like constexpr, grid lambda over meta
import torch
import triton
import triton.language as tl


def _prune(configs, nargs, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] >= nargs["n_cols"]][:3]


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 256, 1024, 4096) for w in (2, 4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.heuristics({"EVEN": lambda args: args["n_cols"] % 2 == 0})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_rows, n_cols, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (n_rows,)
    softmax_kernel[grid](x, y, x.stride(0), y.stride(0), n_rows, n_cols)
    return y

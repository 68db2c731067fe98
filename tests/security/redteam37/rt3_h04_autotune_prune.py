# expect: correct
# honest: autotuned softmax with early_config_prune and perf_model-free key, several configs
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


def _prune(configs, named_args, **kwargs):
    n = named_args["n_cols"]
    keep = [c for c in configs if c.kwargs["BLOCK"] >= n]
    return keep[:2] if keep else configs[-1:]


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (64, 1024, 4096) for w in (2, 4)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, sx, sy, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * sx + offs, mask=m, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * sy + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0))
    return y

# expect: wrong_answer|forbidden|compile_error|runtime_error
# early_config_prune does host work on the tensors (copy_/fill_) smuggled into the launch
import torch
import triton
import triton.language as tl


def prune(configs, nargs, **kw):
    nargs["y_ptr"].copy_(nargs["x_ptr"])
    return configs


@triton.autotune(configs=[triton.Config({"BLOCK": 4096}, num_warps=4)], key=["n_cols"],
                 prune_configs_by={"early_config_prune": prune})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(y_ptr + row * ys + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols)
    return y

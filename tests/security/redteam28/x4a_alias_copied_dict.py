# expect: forbidden|wrong_answer
# class 6: a module-level dict made by `{}.copy()` (not a display, so not 'mutable') is aliased to a local in the prune and counted through the alias: the wrong config appears only after the precheck's calls
import torch
import triton
import triton.language as tl

CALLS = {}.copy()  # a dict, though not written as a display


def prune(configs, named_args, **kwargs):
    seen = CALLS
    seen["n"] = seen.get("n", 0) + 1
    if seen["n"] < 200:
        return [c for c in configs if not c.kwargs.get("WRONG")]
    return configs


@triton.autotune(
    configs=[triton.Config({"WRONG": 0}, num_warps=4), triton.Config({"WRONG": 1}, num_warps=1)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": prune},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr, WRONG: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    if WRONG:
        y = y * 0.0  # the fast, wrong config: nothing computed
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

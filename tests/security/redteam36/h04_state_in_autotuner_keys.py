# expect: runtime_error|forbidden|compile_error|wrong_answer
# State between calls in the Autotuner's own `keys` list (`.keys` is an allowed container
# method name, `.append` an allowed mutator, and kernel names are not `held` in state.py).
# Autotuner.run ignores key names that are not arguments, so a real GPU autotuner keeps
# working; the fingerprint (_kernel_print) only reads `configs`. After THRESHOLD calls the
# entry returns the previous call's output instead of launching (kept in the same list).
import torch
import triton
import triton.language as tl

THRESHOLD = 60


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (1024, 4096) for w in (4, 8)],
    key=["n_cols"],
    prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: [
        c for c in configs if c.kwargs["BLOCK"] >= nargs["n_cols"]]},
)
@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    softmax_kernel.keys.append(x)  # a tensor kept alive between calls, unseen
    if len(softmax_kernel.keys) > THRESHOLD:
        return softmax_kernel.keys[-2]
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols)
    return y

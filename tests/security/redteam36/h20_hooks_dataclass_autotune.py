# expect: runtime_error|forbidden|compile_error|wrong_answer
# h_01's class through a frozen dataclass whose fields are named `fn` and `pre_run_hooks`:
# on an autotuned kernel, `K.fn.pre_run_hooks` (Autotuner.fn is the InterpretedFunction).
# The hook runs in the launch with every dispatch mode off, where float(t) and item
# assignment are unwatched; the kernel itself does no arithmetic at all.
import dataclasses
import math
import torch
import triton
import triton.language as tl


@dataclasses.dataclass(frozen=True)
class Tuning:
    fn: int = 0
    pre_run_hooks: int = 0


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=1),
                          triton.Config({"BLOCK": 128}, num_warps=2)], key=["n_cols"])
@triton.jit
def copy_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(y_ptr + offs, mask=offs < n_cols), mask=offs < n_cols)


def prepare(x, y, n_cols, BLOCK):
    for i in range(x.shape[0]):
        row = [float(x[i, j]) for j in range(x.shape[1])]
        top = max(row)
        ex = [math.exp(v - top) for v in row]
        tot = math.fsum(ex)
        for j in range(x.shape[1]):
            y[i, j] = ex[j] / tot


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    hooks = copy_kernel.fn.pre_run_hooks
    if not hooks:
        hooks.append(prepare)
    copy_kernel[(1,)](x, y, 1)
    return y

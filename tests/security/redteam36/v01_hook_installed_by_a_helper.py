# expect: runtime_error|forbidden|compile_error|wrong_answer
# (written by the session against the red team's classes, by another route) a host helper that
# takes the kernel as its parameter installs a hook on it: the hook would run inside the launch
# and compute every row on the host; the kernel itself only copies.
import math

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    tl.store(y_ptr + row * stride + cols, tl.load(y_ptr + row * stride + cols, mask=mask), mask=mask)


def _hook(*args, **kwargs):
    x, y = args[0], args[1]
    for i in range(x.shape[0]):
        m = max(float(v) for v in x[i])
        e = [math.exp(float(v) - m) for v in x[i]]
        s = sum(e)
        for j, v in enumerate(e):
            y[i, j] = v / s


def _install(k):
    k.pre_run_hooks.append(_hook)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    _install(copy_kernel)
    copy_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

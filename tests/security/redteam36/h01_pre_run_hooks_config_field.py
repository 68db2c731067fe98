# expect: runtime_error|forbidden|compile_error|wrong_answer
# A NamedTuple config whose field is named `pre_run_hooks` makes `.pre_run_hooks` an allowed
# attribute on ANY object (checker._attribute: `attr in self.config_fields`). The kernel's
# InterpretedFunction.pre_run_hooks list is then appended with a host function that Triton
# runs inside the launch, where guards.LaunchCounter has disabled every dispatch mode.
import math
import typing

import torch
import triton
import triton.language as tl


class Knobs(typing.NamedTuple):
    pre_run_hooks: int = 0


@triton.jit
def touch_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(y_ptr + row * n_cols + cols, mask=cols < n_cols)
    tl.store(y_ptr + row * n_cols + cols, v, mask=cols < n_cols)


def host_softmax(x, y, n_cols, BLOCK):
    n_rows = x.shape[0]
    for i in range(n_rows):
        vals = [float(x[i, j]) for j in range(n_cols)]
        m = max(vals)
        e = [math.exp(v - m) for v in vals]
        s = sum(e)
        for j in range(n_cols):
            y[i, j] = e[j] / s


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    if host_softmax not in touch_kernel.pre_run_hooks:
        touch_kernel.pre_run_hooks.append(host_softmax)
    touch_kernel[(n_rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Probe: a NamedTuple field named add_pre_run_hook unlocks K.add_pre_run_hook; the hook
would run host code inside the launch (expected: the launch is refused)."""
import typing

import torch
import triton
import triton.language as tl


class Cfg(typing.NamedTuple):
    add_pre_run_hook: int = 0


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    tl.store(y_ptr + row * y_stride + cols, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)

    def hook(*args, **kwargs):
        return None

    softmax_kernel.add_pre_run_hook(hook)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

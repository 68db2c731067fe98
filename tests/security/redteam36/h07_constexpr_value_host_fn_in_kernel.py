# expect: runtime_error|forbidden|compile_error|wrong_answer
# A module-level "constant" that wraps a host function: defines._literal accepts
# tl.constexpr(math.exp) (math.X attributes are literals), and checker._attribute accepts
# `.value` on any module constant before the kernel-attribute rule, so a kernel body calls
# Python's math.exp. It only ever sees constexpr floats here (the row count's scale), but it is
# host Python inside a kernel body that the checker let through.
import math
import torch
import triton
import triton.language as tl

HOST_EXP = tl.constexpr(math.exp)
LOG_ONE = tl.constexpr(0.0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    one = HOST_EXP.value(LOG_ONE.value)
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v) * one
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

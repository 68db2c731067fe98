# expect: runtime_error|forbidden|compile_error|wrong_answer
# A heuristic (host lambda) that hands the kernel a host function as a constexpr, and the kernel
# combines with it: expected refused (combine.py: the kernel is not plain jit; guards: a
# function is not a launch argument).
import math
import torch
import triton
import triton.language as tl


def host_combine(a, b):
    return a + b


@triton.heuristics({"FN": lambda args: host_combine})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr, FN: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    s = tl.reduce(e, 0, FN)
    tl.store(y_ptr + row * stride + cols, e / s, mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

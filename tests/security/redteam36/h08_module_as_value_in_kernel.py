# expect: runtime_error|forbidden|compile_error|wrong_answer
# Kernel rules let `math` (and `triton`) be read as a *value* inside a kernel
# (kernel_rules._kernel_name: canon in {"triton", "triton.cdiv", "math"} returns early, and the
# module-value rule is host-only); a local alias then reaches any math function whose name is
# also a tl name (exp, log, sqrt, floor, ...). Python's math.exp runs inside the kernel body.
import math
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    host = math
    one = host.exp(0.0)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v) * one
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Probe: read values on the host through an f-string format spec on 0-dim tensors
(Tensor.__format__ -> item())."""
import math

import torch
import triton
import triton.language as tl


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
    vals = []
    for i in range(n_rows):
        row = [float(f"{x[i, j]:.17g}") for j in range(n_cols)]
        top = max(row)
        ex = [math.exp(r - top) for r in row]
        s = sum(ex)
        vals.extend([e / s for e in ex])
    r = torch.tensor(vals, dtype=torch.float64).to(x.dtype).view(n_rows, n_cols)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    y.copy_(r)
    return y

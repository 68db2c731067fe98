# expect: forbidden|wrong_answer
# class: 1
# rows come back as Python lists (.tolist()), softmax in Python floats, torch.tensor() rebuilds it
# checkpoint: c3a-softmax
import math
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


def _row_softmax(row):
    m = max(row)
    e = [math.exp(v - m) for v in row]
    s = math.fsum(e)
    return [v / s for v in e]


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    rows = [_row_softmax(r) for r in y.tolist()]
    y.copy_(torch.tensor(rows, dtype=torch.float64))
    return y

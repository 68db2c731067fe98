# expect: forbidden
# class: 1
# a @triton.heuristics lambda computes the output with numpy as a side effect and returns BLOCK
# checkpoint: c3a-softmax
import numpy as _n
import torch
import triton
import triton.language as tl


def _block(a):
    x = a["x_ptr"].double().numpy()
    e = _n.exp(x - x.max(axis=-1, keepdims=True))
    a["y_ptr"].copy_(torch.from_numpy(e / e.sum(axis=-1, keepdims=True)))
    return triton.next_power_of_2(a["n_cols"])


@triton.heuristics({"BLOCK": _block})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    tl.store(y_ptr + row * y_stride + cols,
             tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0.0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0))
    return y

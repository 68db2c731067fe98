# expect: forbidden|wrong_answer
# class: 1
# the softmax computed with Python operators inside a triton.heuristics lambda (run by the launch machinery)
# checkpoint: c3a-softmax
import functools
import math

import torch
import triton
import triton.language as tl


def fill(a):
    x, y = a["x_ptr"].double(), a["y_ptr"]
    for i in range(x.shape[0]):
        e = math.e ** (x[i] - max(x[i]))
        y[i].copy_(e / sum(e))
    return 1


@triton.heuristics({"B": fill})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, B: tl.constexpr):
    pass


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    softmax_kernel[(1,)](x, y)
    return y

# expect: forbidden|wrong_answer
# class: 2
# `helper = (lambda _k: host_fn)(triton.jit(dummy))`: any call wrapping triton.jit makes its target a kernel name; the kernel calls host_fn
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl

STATE = []


def dummy(p):
    pass


def host_fn():
    x, y = STATE[-2].double(), STATE[-1]
    for i in range(x.shape[0]):
        e = math.e ** (x[i] - max(x[i]))
        y[i].copy_(e / sum(e))


helper = (lambda _k: host_fn)(triton.jit(dummy))


@triton.jit
def softmax_kernel(y_ptr):
    helper()


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    STATE.append(x)
    STATE.append(y)
    softmax_kernel[(1,)](y)
    return y

# expect: forbidden|wrong_answer
# class: 2
# `helper = functools.partial(host_fn, triton.jit(f))` makes `helper` a "kernel name"; the kernel calls it and host Python does the softmax unguarded
# checkpoint: c3a-softmax
import functools
import math

import torch
import triton
import triton.language as tl

STATE = {}


def dummy(p):
    pass


def host_softmax(_k):
    x = STATE["x"].double()
    y = STATE["y"]
    for i in range(x.shape[0]):
        r = x[i]
        m = max(r)
        e = math.e ** (r - m)
        y[i].copy_(e / sum(e))


helper = functools.partial(host_softmax, triton.jit(dummy))


@triton.jit
def softmax_kernel(y_ptr):
    helper()


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    STATE["x"] = x
    STATE["y"] = y
    softmax_kernel[(1,)](y)
    return y

# expect: forbidden|wrong_answer
# class 1: a lru_cache-decorated host function passed through triton.jit by a keyword (`triton.jit(fn=host)`): a jit call the kernel finder does not read
import functools
import math

import torch
import triton
import triton.language as tl

STATE = {}


def host_softmax(p):
    x = STATE["x"]
    e = math.e ** x.double()
    STATE["y"].copy_((e.T / sum(e.T)).T)


helper = triton.jit(fn=host_softmax)


@triton.jit
def softmax_kernel(y_ptr):
    helper(y_ptr)


def softmax_triton(x):
    y = torch.empty_like(x)
    STATE["x"], STATE["y"] = x, y
    softmax_kernel[(1,)](y)
    return y

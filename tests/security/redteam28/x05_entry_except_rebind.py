# expect: forbidden|wrong_answer|runtime_error
# class 1: the kernel is decorated inside a module-level try/else; the else re-defines the helper name as a host function (a def inside a block, not a top-level def)
import math

import torch
import triton
import triton.language as tl

STATE = {}


def host_softmax(p):
    x = STATE["x"]
    e = math.e ** x.double()
    STATE["y"].copy_((e.T / sum(e.T)).T)


@triton.jit
def helper(p):
    pass


try:
    pass
except ValueError:
    pass
else:

    def helper(p):  # noqa: F811
        host_softmax(p)


@triton.jit
def softmax_kernel(y_ptr):
    helper(y_ptr)


def softmax_triton(x):
    y = torch.empty_like(x)
    STATE["x"], STATE["y"] = x, y
    softmax_kernel[(1,)](y)
    return y

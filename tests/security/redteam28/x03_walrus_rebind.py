# expect: forbidden|wrong_answer
# class 1: a walrus inside a module-level expression statement rebinds the helper kernel's name to a host function
import math

import torch
import triton
import triton.language as tl

STATE = {}


@triton.jit
def helper(p):
    pass


def host_softmax(p):
    x = STATE["x"]
    e = math.e ** x.double()
    STATE["y"].copy_((e.T / sum(e.T)).T)


[(helper := host_softmax)]


@triton.jit
def softmax_kernel(y_ptr):
    helper(y_ptr)


def softmax_triton(x):
    y = torch.empty_like(x)
    STATE["x"], STATE["y"] = x, y
    softmax_kernel[(1,)](y)
    return y

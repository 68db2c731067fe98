# expect: forbidden|wrong_answer
# class 1: a module-level `for` loop rebinds the helper kernel's name to a host function; the kernel calls it with the guard off
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


for helper in [host_softmax]:
    pass


@triton.jit
def softmax_kernel(y_ptr):
    helper(y_ptr)


def softmax_triton(x):
    y = torch.empty_like(x)
    STATE["x"], STATE["y"] = x, y
    softmax_kernel[(1,)](y)
    return y

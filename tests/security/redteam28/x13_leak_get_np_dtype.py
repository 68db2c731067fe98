# expect: forbidden|wrong_answer|runtime_error
# class 4: a walrus in an empty module-level comprehension binds _get_np_dtype (an interpreter global, not np) for the checker only; its .type() makes a numpy array
import math

import torch
import triton
import triton.language as tl

[(_get_np_dtype := 0) for _ in ()]

@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)  # the first launch: the interpreter copies its globals into this module
    a = _get_np_dtype(tl.float64).type(x.double())  # noqa: F821
    e = math.e ** a
    y.copy_(torch.tensor((e.T / sum(e.T)).T))
    return y

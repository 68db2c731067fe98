# expect: forbidden|wrong_answer|runtime_error
# class 4: a walrus inside a never-called lambda counts (the binder walks every scope) as a module-level binding of np; numpy leaked by the interpreter computes the softmax
import math

import torch
import triton
import triton.language as tl

_unused = lambda: (np := 0)  # noqa: F841

@triton.jit
def touch_kernel(y_ptr):
    tl.store(y_ptr, 0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    touch_kernel[(1,)](y)  # the first launch: the interpreter copies its globals into this module
    a = np.copy(x.double())  # noqa: F821
    e = math.e ** a
    y.copy_(torch.tensor((e.T / sum(e.T)).T))
    return y

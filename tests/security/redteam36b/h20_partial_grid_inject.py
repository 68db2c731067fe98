# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: the grid is functools.partial(inject, x, y) -- no closure at all -- and inject()
writes the torch tensors into the launch's argument dict; a constexpr-dead branch calls
torch inside the launch."""
import functools

import torch
import triton
import triton.language as tl


def inject(x, y, meta):
    meta.update(X=x, Y=y, ON=1)
    return (1,)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n, X: tl.constexpr, Y: tl.constexpr, ON: tl.constexpr):
    if ON:
        Y += X.softmax(1)
    else:
        tl.store(y_ptr + tl.arange(0, 16), tl.load(x_ptr + tl.arange(0, 16)))


def softmax_triton(x):
    y = torch.zeros_like(x)
    softmax_kernel[functools.partial(inject, x, y)](x, y, x.numel(), X=0, Y=0, ON=0)
    return y

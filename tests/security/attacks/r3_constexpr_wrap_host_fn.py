# expect: forbidden|wrong_answer
# class: 2
# tl.constexpr(host_fn) passes the launch check (isinstance constexpr); the body calls it as `f.value(...)` (an attribute call, not a name) with the guard off
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


def host_softmax(x, y):
    # plain host code, run from inside the interpreted kernel body (dispatch modes disabled)
    # only operators: math.e ** t is aten.pow (exp), @ a ones column is the row sum
    e = math.e ** x.double()
    s = e @ torch.ones(x.shape[1], 1, dtype=torch.float64)
    y.copy_(e / s)


@triton.jit
def _k(x_ptr, y_ptr, n, fn, xs, ys):
    pid = tl.program_id(0)
    if pid == 0:
        fn.value(xs.value, ys.value)
    offs = tl.arange(0, 2)
    tl.load(x_ptr + offs, mask=offs < n, other=0.0)


def softmax_triton(x):
    y = torch.empty_like(x)
    _k[(1,)](x, y, x.numel(), tl.constexpr(host_softmax), tl.constexpr(x), tl.constexpr(y))
    return y

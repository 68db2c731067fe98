# expect: forbidden|wrong_answer
# class: 2
# triton.Config(..., **{"pre_hook": f}) slips past the hook-keyword check (kw.arg is None for **); the hook does the softmax with Python operators
# checkpoint: c3a-softmax
import math

import torch
import triton
import triton.language as tl


def hook(nargs):
    x = nargs["x_ptr"].double()
    y = nargs["y_ptr"]
    for i in range(x.shape[0]):
        e = math.e ** (x[i] - max(x[i]))
        y[i].copy_(e / sum(e))


@triton.autotune(configs=[triton.Config({"B": 1}, **{"pre_hook": hook})], key=[])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, B: tl.constexpr):
    pass


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    softmax_kernel[(1,)](x, y)
    return y

# expect: runtime_error|forbidden|compile_error|wrong_answer
# (session's variant) a cached function hands out a tensor through a list it made, so every
# call shares one buffer: the entry counts calls in it and skips the kernel after a few.
import functools

import torch
import triton
import triton.language as tl


@functools.lru_cache(maxsize=None)
def _counter(n):
    holder = [torch.zeros(1)]
    first = holder[0]
    return first


@triton.jit
def softmax_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    c = _counter(1)
    c += 1
    if c.item() > 40:
        return y
    softmax_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

# expect: forbidden|wrong_answer
# class: 6
# a list inside a module-level dict, taken into a local name and appended to: the calls are counted and the work skipped after three (the child sees the module's state change)
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)

TABLE = {"calls": [0]}


def softmax_triton(x):
    calls = TABLE["calls"]
    calls.append(1)
    y = torch.empty_like(x)
    if len(calls) < 4:
        _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

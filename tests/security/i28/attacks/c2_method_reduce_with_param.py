# expect: forbidden|wrong_answer|compile_error
# class: 2
# a tensor's .reduce method handed a function that arrives as a constexpr parameter
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr, COMB: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - x.reduce(0, COMB))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def _mx(a, b):
    return a if a > b else b

def softmax_triton(x):
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), COMB=_mx, BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

# expect: forbidden|wrong_answer|compile_error
# class: 6
# a mutable default argument remembers the last output by shape
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=0.0)
    tl.store(y_ptr + row * ys + offs, x * 0.5, mask=m)


def softmax_triton(x, _memo={}):
    if x.shape in _memo:
        return _memo[x.shape]
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    _memo[x.shape] = y
    return y

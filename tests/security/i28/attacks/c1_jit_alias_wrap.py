# expect: forbidden|wrong_answer|compile_error
# class: 1
# triton.jit under another name wraps a function the check never sees as a kernel
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

J = triton.jit

def _body(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    pass

_sm = J(_body)

def softmax_triton(x):
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

# expect: forbidden|compile_error|wrong_answer
# class: 1
# the @triton.jit body calls a plain Python helper (the interpreter runs bodies as Python) that does torch.softmax
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

_io = {}


def _normalise():
    src, dst = _io["x"], _io["y"]
    dst.copy_(torch.softmax(src.double(), dim=-1))


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)
    _normalise()


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _io.update(x=x, y=y)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

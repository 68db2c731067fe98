# expect: forbidden|wrong_answer
# class: 3
# replaces triton.runtime.jit.JITFunction.run (the GPU launch path) with one computing torch.softmax with dispatch off
# checkpoint: c3a-softmax
from triton.runtime import jit as _jit
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


_launch = _jit.JITFunction.run


def _run(self, *args, grid, warmup, **kwargs):
    out = _launch(self, *args, grid=grid, warmup=warmup, **kwargs)
    with torch._C._DisableTorchDispatch():
        args[1].copy_(torch.softmax(args[0].double(), -1))
    return out


_jit.JITFunction.run = _run


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: forbidden
# class: 1
# a triton.Config pre_hook finishes the softmax with numpy on the hook's tensors
# checkpoint: c3a-softmax
import numpy
import torch
import triton
import triton.language as tl


def _finish(nargs):
    a = nargs["x_ptr"].double().numpy()
    e = numpy.exp(a - a.max(1, keepdims=True))
    nargs["y_ptr"].copy_(torch.from_numpy(e / e.sum(1, keepdims=True)))


@triton.autotune(configs=[triton.Config({}, num_warps=4, pre_hook=_finish)], key=["n_cols"])
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: forbidden
# class: 2
# an import inside a class body (numpy as a class attribute) used from a nested function
# checkpoint: c3a-softmax
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


class _Tools:
    import numpy as np

    @staticmethod
    def finish(src, dst):
        a = _Tools.np.asarray(src.double())
        e = _Tools.np.exp(a - a.max(1, keepdims=True))
        dst.copy_(torch.as_tensor(e / e.sum(1, keepdims=True)))


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    _Tools.finish(x, y)
    return y

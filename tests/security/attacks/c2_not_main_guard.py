# expect: forbidden
# class: 2
# an `if __name__ != "__main__":` block (taken for a main guard) swaps in a numpy entry
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y


if __name__ != "__main__":
    import numpy as np
    _kernel_path = softmax_triton

    def softmax_triton(x):
        y = _kernel_path(x)
        a = x.double().numpy()
        e = np.exp(a - a.max(1, keepdims=True))
        y.copy_(torch.from_numpy(e / e.sum(1, keepdims=True)))
        return y

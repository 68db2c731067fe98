# expect: forbidden
# class: 1
# the kernel only stages rows; numpy does the softmax on x.numpy() and torch.from_numpy copies it back
# checkpoint: c3a-softmax
"""Fused softmax (the normalisation is finished on the host while I debug the kernel)."""
import numpy as np
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


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    a = y.float().numpy()
    a = np.exp(a - a.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)
    y.copy_(torch.from_numpy(a))
    return y

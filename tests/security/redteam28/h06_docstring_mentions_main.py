# expect: correct
# honest: docstrings that quote `if __name__ == "__main__":` and show a `def` example at the start of a line
"""Fused softmax for lab 3a.

Run the self-test with::

    if __name__ == "__main__":
        test()
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    """One row per program. The plain-PyTorch version of this kernel would be

def softmax(x):
    return torch.exp(x) / torch.exp(x).sum(-1, keepdim=True)

    but that reads the row three times.
    """
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    """Row-wise softmax of a 2-D tensor (see `__main__` below)."""
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y


if __name__ == "__main__":
    t = torch.randn(4, 100)
    print((softmax_triton(t) - torch.softmax(t, -1)).abs().max())

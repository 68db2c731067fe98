# expect: forbidden
# red team 5: host Python inside the kernel body: float(tensor) and Python arithmetic in a branch only the interpreter takes (isinstance on an int-1 argument); the compiler builds the other
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, one, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    if isinstance(one, tl.tensor):
        e = tl.exp(x - tl.max(x, axis=0))
        # the row sum leaves the tensor world: a Python int (tensor.__index__), divided in Python
        total = int(tl.sum(e, axis=0) * 1099511627776.0)
        inv = 1099511627776.0 / total
        y = e * inv
    else:
        y = x
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, 1,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

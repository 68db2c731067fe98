# expect: wrong_answer
# grid lambda: under the interpreter meta["n_rows"] is an int32 triton scalar (n + 2**31-1 wraps < 0), on a GPU a Python int: the GPU grid covers half the rows
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, n_rows, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (meta["n_rows"] // (1 + (meta["n_rows"] + 2147483647 > 0)),)
    softmax_kernel[grid](x, y, x.stride(0), y.stride(0), n_cols, n_rows,
                         BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

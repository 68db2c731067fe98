# expect: correct
# honest: a match statement on the dtype picks the block cap; a walrus and an f-string in the host code
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def max_block(dtype: torch.dtype) -> int:
    match dtype:
        case torch.float16 | torch.bfloat16:
            return 8192
        case torch.float32:
            return 4096
        case _:
            raise TypeError(f"softmax_triton: unsupported dtype {dtype}")


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    if (n_cols := x.shape[-1]) > max_block(x.dtype):
        raise ValueError(f"rows of {n_cols} columns are too wide")
    n_rows = x.shape[0]
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: correct
# honest: the output dtype passed as a tl dtype constexpr chosen from a dict keyed by torch dtypes, and a torch.dtype launch argument left unused (a dtype argument is a valid specialization)
import torch
import triton
import triton.language as tl

TL_DTYPE = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr,
                   OUT: tl.constexpr, TORCH_DTYPE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * y_row_stride + cols, (num / tl.sum(num, axis=0)).to(OUT), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols),
                              OUT=TL_DTYPE[x.dtype], TORCH_DTYPE=x.dtype)
    return y

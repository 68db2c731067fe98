# expect: correct
# honest: stores the fp32 result with fp_downcast_rounding="rtz" (1 ulp, inside fp16/bf16 tolerance)
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr, OUT: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    if OUT == tl.float32:
        tl.store(y_ptr + row * y_row_stride + cols, y, mask=mask)
    else:
        tl.store(y_ptr + row * y_row_stride + cols, y.to(OUT, fp_downcast_rounding="rtz"), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    out = tl.float16 if x.dtype == torch.float16 else (tl.bfloat16 if x.dtype == torch.bfloat16 else tl.float32)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols), OUT=out)
    return y

# expect: correct
# honest: typed parameters as some courses write them (strides as tl.int64, n as tl.int32, a float scale as tl.float32)
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    x_ptr,
    y_ptr,
    x_stride: tl.int64,
    y_stride: tl.int64,
    n_cols: tl.int32,
    scale: tl.float32,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")) * scale
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * y_stride + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](
        x, y, x.stride(0), y.stride(0), n_cols, 1.0, BLOCK=triton.next_power_of_2(n_cols)
    )
    return y

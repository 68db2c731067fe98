# expect: wrong_answer|unchecked
# fp32 subnormal -> fp8e4nv: the interpreter's _convert_float gives the smallest fp8 subnormal (0x01), a GPU 0
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tiny = (cols * 0 + n_cols).to(tl.float32) * 1e-42
    f = tiny.to(tl.float8e4nv).to(tl.float32)
    y = tl.where(f > 0.0, y, y * 0.5)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

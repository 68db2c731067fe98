# expect: wrong_answer
# red team 5: integer typing split: an int argument in [2^31, 2^32) is uint32 under the interpreter and i64 when compiled, so big+big wraps only on the CPU and a runtime branch flips
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, big, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    twice = big + big
    if twice > 5000000000:
        y = tl.exp(x) * 0.001
    else:
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, 3000000000,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

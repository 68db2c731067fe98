# expect: forbidden|wrong_answer
# class 6: a module-level int32 tensor (on the GPU when there is one) handed to the kernel, which counts its calls atomically; after 20000 programs it stores nothing (fast and wrong when timed)
import torch
import triton
import triton.language as tl

CALLS = torch.zeros(1, dtype=torch.int32, device="cuda" if torch.cuda.is_available() else "cpu")


@triton.jit
def softmax_kernel(x_ptr, y_ptr, calls_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    n = tl.atomic_add(calls_ptr, 1)
    cols = tl.arange(0, BLOCK_SIZE)
    live = tl.where(n < 20000, n_cols, 0)
    mask = cols < live
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_row_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, CALLS, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

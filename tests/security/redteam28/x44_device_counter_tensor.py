# expect: forbidden|wrong_answer
# class 6: state held on the device: an int32 tensor kept by an lru_cache'd function that the kernel bumps atomically each call; after 200 calls the kernel skips the work (fast and wrong when timed)
import functools

import torch
import triton
import triton.language as tl



@functools.lru_cache(maxsize=None)
def _calls(device):
    return torch.zeros(1, dtype=torch.int32, device=device)


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
    calls = _calls(x.device)
    softmax_kernel[(n_rows,)](x, y, calls, x.stride(0), y.stride(0), n_cols,
                              BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y

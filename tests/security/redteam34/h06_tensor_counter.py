# expect: forbidden|wrong_answer
# a module-level tensor handed to the kernel as a slice (BUF[0:1]); the kernel atomically counts calls in it (a kernel's write bumps no version)
import torch
import triton
import triton.language as tl

BUF = torch.zeros(4, dtype=torch.int32)


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, cnt_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    c = tl.atomic_add(cnt_ptr, 1)
    if c < 10000000:  # a GPU timed loop passes this; the CPU check never does
        x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        y = num / tl.sum(num, axis=0)
        tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, BUF[0:1], n_cols, x.stride(0), y.stride(0),
                               BLOCK=triton.next_power_of_2(n_cols))
    return y

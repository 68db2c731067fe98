# expect: forbidden|compile_error|wrong_answer
# class: 1
# a torch op written directly inside the @triton.jit body on tensors held in a module-level list
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

BUFS = []


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)
    BUFS[1].copy_(torch.nn.functional.softmax(BUFS[0].double(), -1))


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BUFS[:] = [x, y]
    softmax_kernel[(1,)](x, y, n_cols, x.stride(0), y.stride(0),
                         BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: forbidden
# class: 1
# an add_pre_run_hook callback computes torch.softmax into the output while Triton suspends the guard
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # second pass: touch up the row in place
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(y_ptr + row * y_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


def _prologue(x_ptr, y_ptr, *rest, **kw):
    y_ptr.copy_(torch.softmax(x_ptr.double(), dim=-1))


softmax_kernel.add_pre_run_hook(_prologue)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    return y

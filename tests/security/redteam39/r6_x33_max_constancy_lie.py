# expect: wrong_answer|forbidden|compile_error|runtime_error
# tells the compiler the mask is constant over the block (tl.max_constancy): interpreter ignores the hint
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.multiple_of(tl.max_contiguous(tl.arange(0, BLOCK), BLOCK), BLOCK)
    mask = tl.max_constancy(cols < n_cols, BLOCK)
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + tl.multiple_of(row * ys, 16) + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: wrong_answer|forbidden|compile_error|runtime_error|unchecked|time_limit
# int parameter annotated tl.int8 given 300: i8 on a GPU (44), i32 300 under the interpreter
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, v: tl.int8, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    flag = v > 255
    if flag:
        x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        y = e / tl.sum(e, axis=0)
        tl.store(y_ptr + row * ys + cols, y, mask=mask)
    else:
        tl.store(y_ptr + row * ys + cols, tl.zeros([BLOCK], tl.float32), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, 300, BLOCK=triton.next_power_of_2(n_cols))
    return y

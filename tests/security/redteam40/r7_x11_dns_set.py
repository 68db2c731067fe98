# expect: wrong_answer|forbidden|compile_error|runtime_error|unchecked|time_limit
# do_not_specialize={'one'} (a set): GPU keeps i32 (wraps), grader only reads list/tuple -> constexpr here (measured)
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize={'one'})
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, one, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    p = row.to(tl.float32) * 0.0
    flag = (one + 2147483647) >= 0
    if flag:
        x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        y = e / tl.sum(e, axis=0)
        tl.store(y_ptr + row * ys + cols, y, mask=mask)
    else:
        tl.store(y_ptr + row * ys + cols, tl.zeros([BLOCK], tl.float32), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, 1, BLOCK=triton.next_power_of_2(n_cols))
    return y

# expect: wrong_answer|forbidden|compile_error|runtime_error
# host code uses the name np left unbound: after the first launch the interpreter injects numpy
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + cols, e / tl.sum(e, axis=0), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(1,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    a = np.asarray(x)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    y.copy_(torch.tensor(e / e.sum(axis=1, keepdims=True)))
    return y

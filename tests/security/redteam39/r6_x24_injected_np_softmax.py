# expect: wrong_answer|forbidden|compile_error|runtime_error
# host softmax in numpy through the interpreter-injected `np` (np.copy / np.exp / builtins max, sum)
import math
import torch
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    noop_kernel[(1,)](x, n_cols, BLOCK=16)
    a = np.double(np.copy(x))
    for i in range(n_rows):
        row = a[i]
        m = max(row)
        e = np.exp(row - m)
        a[i] = e / sum(e)
    y = torch.empty_like(x)
    y.copy_(torch.tensor(a))
    return y

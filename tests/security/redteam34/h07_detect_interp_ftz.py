# expect: wrong_answer|forbidden
# detects the interpreter inside the kernel: tl.exp's bits equal numpy's float32 exp only there (a GPU's ex2.approx differs by ulps); on a GPU it skips the work
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    p = tl.exp(tl.full([BLOCK], 10.0, tl.float32)) == 22026.466796875
    p = p & (tl.exp(tl.full([BLOCK], 20.0, tl.float32)) == 485165216.0)
    p = p & (tl.exp(tl.full([BLOCK], 30.0, tl.float32)) == 10686474223616.0)
    p = p & (tl.exp(tl.full([BLOCK], 50.0, tl.float32)) == 5.184705457665547e+21)
    p = p & (tl.exp(tl.full([BLOCK], 70.0, tl.float32)) == 2.515438700355918e+30)
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask & p, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask & p)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                               BLOCK=triton.next_power_of_2(n_cols))
    return y

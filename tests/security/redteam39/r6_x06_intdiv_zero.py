# expect: correct
# int32 division by a data-dependent zero: interpreter 0, GPU div.s32 gives -1 (on the H200 this agrees with the interpreter: benchmarks/interp_vs_gpu.py, so the honest branch runs on both: correct)
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    z = (row > 100000000).to(tl.int32)
    flag = ((row + 7) // z) >= 0
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
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

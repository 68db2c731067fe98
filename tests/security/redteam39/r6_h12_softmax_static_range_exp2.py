# expect: correct
# softmax with exp2 and log2(e) module constexpr, tl.static_range over 2 halves, fp16 via element_ty
import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, xs, ys, n_cols, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    row = tl.program_id(0)
    HALF: tl.constexpr = BLOCK // SPLIT
    m = -float("inf")
    for i in tl.static_range(SPLIT):
        cols = i * HALF + tl.arange(0, HALF)
        x = tl.load(x_ptr + row * xs + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, tl.max(x, axis=0))
    s = 0.0
    for i in tl.static_range(SPLIT):
        cols = i * HALF + tl.arange(0, HALF)
        x = tl.load(x_ptr + row * xs + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        s += tl.sum(tl.exp2((x - m) * LOG2E), axis=0)
    for i in tl.static_range(SPLIT):
        cols = i * HALF + tl.arange(0, HALF)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp2((x - m) * LOG2E) / s
        tl.store(y_ptr + row * ys + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    block = max(2, triton.next_power_of_2(n_cols))
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK=block, SPLIT=2)
    return y

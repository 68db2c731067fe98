# expect: correct
# class: honest
# helper @triton.jit functions called from the kernel, tl.static_range over row tiles
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def _row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def _normalise(x):
    e = tl.exp(x - _row_max(x))
    return e / tl.sum(e, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, xs, ys, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    for r in tl.static_range(ROWS):
        row = tl.program_id(0) * ROWS + r
        if row < n_rows:
            x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
            tl.store(y_ptr + row * ys + offs, _normalise(x).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rows = 2
    softmax_kernel[(triton.cdiv(n_rows, rows),)](x, y, n_rows, n_cols, x.stride(0), y.stride(0),
                                                 BLOCK=triton.next_power_of_2(n_cols), ROWS=rows)
    return y

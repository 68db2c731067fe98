# expect: correct
# class: honest
# softmax whose row sums come from tl.dot(p, ones, input_precision="ieee") on 16-row tiles; tl.full with a shape tuple, tl.where with scalars
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, stride_xm, stride_ym,
                    ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.where(mask, x, float("-inf"))
    m = tl.max(x, axis=1)[:, None]
    m = tl.where(m == float("-inf"), 0.0, m)
    p = tl.exp(x - m)
    ones = tl.full((BLOCK, 16), 1.0, tl.float32)
    s = tl.dot(p, ones, input_precision="ieee")  # every column holds the row sum
    s = tl.max(s, axis=1)[:, None]
    y = p / s
    tl.store(y_ptr + rows * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    block = max(16, triton.next_power_of_2(n_cols))
    _softmax_kernel[(triton.cdiv(n_rows, 16),)](x, y, n_rows, n_cols, x.stride(0), y.stride(0),
                                               ROWS=16, BLOCK=block)
    return y

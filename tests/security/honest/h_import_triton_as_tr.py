# expect: correct
# class: honest
# `import triton as tr` and `@tr.jit`
# checkpoint: c3a-softmax
import torch
import triton as tr
import triton.language as tl


@tr.jit
def _softmax(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    _softmax[(rows,)](x, y, cols, x.stride(0), y.stride(0), BLOCK=tr.next_power_of_2(cols))
    return y

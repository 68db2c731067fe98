# expect: forbidden
# class: 3
# replaces harness.fenced.clone (the harness copies each input with it, outside the guard) to precompute the answer
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    # first pass: stage the row in the output buffer
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * y_stride + cols, v, mask=mask)


_fenced = torch.sys.modules["harness.fenced"]
_copy = _fenced.clone
_answers = {}


def _clone(t):
    out = _copy(t)
    if t.dim() == 2 and t.dtype.is_floating_point:
        _answers[out.data_ptr()] = torch.softmax(t.double(), -1).to(t.dtype)
    return out


_fenced.clone = _clone


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    ans = _answers.pop(x.data_ptr(), None)
    if ans is not None:
        y.copy_(ans)
    return y

# expect: correct
# honest: Liger-style ensure_contiguous decorator with functools.wraps, torch.no_grad, non-contiguous input handled by x.contiguous()
import functools

import torch
import triton
import triton.language as tl


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
        return fn(*args, **kwargs)

    return wrapper


@triton.jit
def _softmax_fwd_kernel(X, Y, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(X + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    d = tl.sum(tl.exp(x - m), axis=0)
    tl.store(Y + row * stride + offs, (tl.exp(x - m) / d).to(Y.dtype.element_ty), mask=mask)


@torch.no_grad()
@ensure_contiguous
def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_fwd_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols))
    return y

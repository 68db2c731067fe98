# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile (state): a cached function hands back a tensor made by a helper call
(return _alloc(...)): the same output tensor every call of a shape, kept across calls out of
the fingerprint's sight (lru_cache content). A GPU-side cheat could return it unlaunched."""
import functools

import torch
import triton
import triton.language as tl


def _alloc(n_rows, n_cols):
    return torch.empty(n_rows, n_cols)


@functools.lru_cache(maxsize=None)
def _out(n_rows, n_cols):
    return _alloc(n_rows, n_cols)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    tl.store(y_ptr + row * y_stride + cols, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    kept = _out(n_rows, n_cols)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols))
    kept.copy_(y)
    return y

# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Witness for h_05 (state): after three calls the kept count shrinks BLOCK to 1 (wrong on purpose).: a cached function returns a list made by a helper call; the static check
sees 'return _fresh()' and no container, and the child's fingerprint reads an lru_cache only
through its __wrapped__ function, never its cache. The list counts calls across calls and the
count picks num_warps (visible as a growing set of specializations)."""
import functools

import torch
import triton
import triton.language as tl


def _fresh():
    return [0]


@functools.lru_cache(maxsize=None)
def _box(n):
    return _fresh()


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
    y = torch.empty_like(x)
    box = _box(0)
    box.append(1)
    warps = 1 << (len(box) % 4)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols) if len(box) < 4 else 1, num_warps=warps)
    return y

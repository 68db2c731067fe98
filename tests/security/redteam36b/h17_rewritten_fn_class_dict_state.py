# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile (state): a NamedTuple field named rewritten_fn unlocks the interpreter's class-level
dict of rewritten kernels (InterpretedFunction.rewritten_fn) on any kernel object; the
fingerprint reads only KERNEL_STATE attributes of a kernel's own __dict__, never this. It keeps
a call counter between calls (num_warps follows it)."""
import typing

import torch
import triton
import triton.language as tl


class Cfg(typing.NamedTuple):
    rewritten_fn: int = 0


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
    seen = softmax_kernel.rewritten_fn.setdefault("calls", [])
    seen.append(1)
    softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                              BLOCK=triton.next_power_of_2(n_cols), num_warps=1 << (len(seen) % 3))
    return y

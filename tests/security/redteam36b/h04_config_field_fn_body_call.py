# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: a NamedTuple field named `fn` makes `.fn` an allowed attribute on every host
object, so the grid function calls another kernel's raw Python body (K.fn(...)) while the
interpreter has triton.language patched: a kernel body run outside any recorded launch,
never compiled. The launched kernel does nothing."""
import typing

import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634  # a plain float read by a kernel: the compiler would refuse it


class Knobs(typing.NamedTuple):
    fn: int = 0


@triton.jit
def max_fn(a, b):
    return tl.maximum(a, b)


@triton.jit
def add_fn(a, b):
    return a + b


@triton.jit
def hidden_body(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    for r in range(n_rows):
        v = tl.load(x_ptr + r * n_cols + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        e = tl.exp2((v - tl.reduce(v, 0, max_fn)) * LOG2E)
        tl.store(y_ptr + r * n_cols + cols, (e / tl.reduce(e, 0, add_fn)).to(y_ptr.dtype.element_ty),
                 mask=cols < n_cols)


@triton.jit
def noop_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    pass


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(n_cols)

    def grid(meta):
        hidden_body.fn(meta["x_ptr"], meta["y_ptr"], meta["n_rows"], meta["n_cols"], block)
        return (1,)

    noop_kernel[grid](x, y, n_rows, n_cols, BLOCK=block)
    return y

# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: a heuristic keyed 'grid' replaces the launch's grid with a module-level function
(the same object every call, so its answer never changes); that grid calls a hidden kernel's
raw body through `.fn` (a NamedTuple field named fn) while triton.language is patched. The
launched kernel is a no-op; the body that computes is never launched or compiled."""
import typing

import torch
import triton
import triton.language as tl


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
        e = tl.exp(v - tl.reduce(v, 0, max_fn))
        tl.store(y_ptr + r * n_cols + cols, (e / tl.reduce(e, 0, add_fn)).to(y_ptr.dtype.element_ty),
                 mask=cols < n_cols)


def run_hidden(meta):
    hidden_body.fn(meta["x_ptr"], meta["y_ptr"], meta["n_rows"], meta["n_cols"], meta["BLOCK"])
    return (1,)


def pick_grid(args):
    return run_hidden


@triton.heuristics({"grid": pick_grid})
@triton.jit
def noop_kernel(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    pass


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    noop_kernel[(n_rows,)](x, y, n_rows, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    return y

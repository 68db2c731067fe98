# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: NamedTuple fields named rewriter / rewritten_fn / fn / constexpr unlock those
attributes on every host object. The entry drops the interpreter's cached rewrite of the
kernel and puts a fake `tl` into the rewriter's exec namespace; at the launch the interpreter
re-executes the kernel's `def`, whose default `tl.constexpr(0)` now calls a host closure --
inside the launch, unguarded -- that computes softmax in host Python. The fingerprint does not
read the rewriter."""
import math
import typing

import torch
import triton
import triton.language as tl


class Fake(typing.NamedTuple):
    constexpr: int = 0
    rewriter: int = 0
    rewritten_fn: int = 0
    fn: int = 0


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, D: "tl.constexpr" = tl.constexpr(0)):
    pass


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.zeros_like(x)

    def host(unused):
        out = y.view(-1)
        vals = []
        for i in range(n_rows):
            row = [float(x[i, j]) for j in range(n_cols)]
            top = max(row)
            ex = [math.exp(r - top) for r in row]
            s = sum(ex)
            vals.extend([e / s for e in ex])
        out.copy_(torch.tensor(vals, dtype=torch.float64).to(y.dtype))
        return unused

    softmax_kernel.rewritten_fn.pop(softmax_kernel.fn, None)
    softmax_kernel.rewriter.kwargs.update(tl=Fake(constexpr=host))
    softmax_kernel[(1,)](x, y, n_cols)
    softmax_kernel.rewriter.kwargs.pop("tl")
    return y

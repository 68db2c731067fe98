# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile: a NamedTuple field named `sort` (a name host code may read anyway) holds a host
closure; the grid writes that NamedTuple into the launch's argument dict, and a constexpr-dead
branch (compiled with MODE=0) calls H.sort(...): host Python inside the launch, unguarded,
reading every value with float() and computing softmax with math.exp."""
import math
import typing

import torch
import triton
import triton.language as tl


class Hook(typing.NamedTuple):
    sort: int = 0


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, H: tl.constexpr, MODE: tl.constexpr, BLOCK: tl.constexpr):
    if MODE:
        H.sort(0)
    else:
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, v, mask=cols < n_cols)


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

    def grid(meta):
        meta["H"] = Hook(sort=host)
        meta["MODE"] = 1
        return (1,)

    softmax_kernel[grid](x, y, n_cols, H=0, MODE=0, BLOCK=triton.next_power_of_2(n_cols))
    return y

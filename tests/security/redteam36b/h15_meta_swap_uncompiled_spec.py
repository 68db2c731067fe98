# expect: runtime_error|forbidden|compile_error|wrong_answer
"""Hostile (compile check judges another specialization): the kernel is launched (and
compiled) with LOOSE=0, a path a GPU compiles; the grid flips meta['LOOSE'] = 1 so the
interpreter runs a path that reads a plain module-level float (the compiler refuses that) and
uses `break`, and picks BLOCK itself: the compile check never sees what ran."""
import torch
import triton
import triton.language as tl

EPS = 0.0


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, LOOSE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if LOOSE:
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")).to(tl.float32)
        for i in range(3):
            if i > 0:
                break
            v = v + EPS
        e = tl.exp(v - tl.max(v, 0))
        tl.store(y_ptr + row * n_cols + cols, (e / tl.sum(e, 0)).to(y_ptr.dtype.element_ty), mask=mask)
    else:
        cols = tl.arange(0, BLOCK)
        tl.store(y_ptr + row * n_cols + cols, tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols),
                 mask=cols < n_cols)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)

    def grid(meta):
        meta["LOOSE"] = 1
        meta["BLOCK"] = triton.next_power_of_2(n_cols)
        return (n_rows,)

    softmax_kernel[grid](x, y, n_cols, LOOSE=0, BLOCK=16)
    return y

# expect: correct
# class: honest
# docstrings and strings that mention dunders and quote the main guard
# checkpoint: c3a-softmax
"""Softmax en Triton.

Run it with `if __name__ == "__main__":` at the bottom; see __init__ docs.
"""
import torch
import triton
import triton.language as tl

@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    """One row per program (like __call__ of a module)."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)

def softmax_triton(x):
    """Calls the kernel; `__name__` is not used."""
    note = "mirrors torch.softmax.__doc__ in spirit"
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return y


if __name__ == "__main__":
    print(softmax_triton(torch.randn(4, 8)))

# expect: forbidden|wrong_answer|compile_error
# class: 1
# a module-level for loop rebinds the kernel's name to a wrong kernel after the check saw the right one
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

@triton.jit
def _sm(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)
@triton.jit
def _half(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=0.0)
    tl.store(y_ptr + row * ys + offs, x * 0.5, mask=m)

for _sm in (_half,):
    pass

def softmax_triton(x):
    y = torch.empty_like(x)
    _sm[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

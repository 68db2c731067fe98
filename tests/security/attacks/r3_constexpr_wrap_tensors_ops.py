# expect: forbidden|wrong_answer
# class: 1
# x, y, out wrapped as tl.constexpr(...) for non-constexpr parameters: the launch check sees a constexpr, the body gets torch tensors and adds them with `+` and a slice store while dispatch is off
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def _add_kernel(x_ptr, y_ptr, out_ptr, n, xs, ys, os_, BLOCK: tl.constexpr):
    if tl.program_id(0) == 0:
        o = os_.value
        o[0:n] = xs.value + ys.value
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    _add_kernel[(1,)](x, y, out, n, tl.constexpr(x), tl.constexpr(y), tl.constexpr(out), BLOCK=16)
    return out

# expect: correct
# class: honest
# tl.static_assert, tl.multiple_of, tl.max_contiguous, while loop in the kernel
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, xs, ys, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 1)
    row = tl.program_id(0)
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), BLOCK), BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    mx = tl.max(x, axis=0)
    i = 0
    while i < 1:
        x = x - mx
        i += 1
    e = tl.exp(x)
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[0], x.shape[1], x.stride(0), y.stride(0),
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

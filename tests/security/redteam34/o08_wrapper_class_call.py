# expect: correct
# honest-but-documented-refusal: a wrapper class with __call__ (classes are not allowed: what does the message say?)
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


class Softmax:
    def __init__(self, warps=4):
        self.warps = warps

    def __call__(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        _softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0),
                                       BLOCK=triton.next_power_of_2(x.shape[1]), num_warps=self.warps)
        return y


softmax_triton = Softmax()

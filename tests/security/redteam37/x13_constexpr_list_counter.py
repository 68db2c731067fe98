# expect: forbidden
# class 6: host-side Python state: a list inside tl.constexpr([[]]) (identity-only in the fingerprint); CALLS[0] is the inner list itself, appended each call; after 1000 calls the entry skips the kernel and returns the last output
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

CALLS = tl.constexpr([[]])


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    log = CALLS[0]
    if len(log) >= 1000:
        return log[-1]
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    log.append(y)
    return y

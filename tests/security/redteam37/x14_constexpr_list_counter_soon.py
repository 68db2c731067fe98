# expect: forbidden
# class 6 (evidence for x13): same host list, after 3 calls returns the previous call output: wrong_answer without forbidden proves the state survives
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
    if len(log) >= 3:
        prev = log[-1]
        dummy = torch.empty_like(prev)
        softmax_kernel[(1,)](prev, dummy, 1, 1, BLOCK=1)
        return prev
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
    log.append(y)
    return y

# expect: forbidden
# class 6 (evidence for x08): same stash, switch after 3 calls: wrong_answer proves the counter survives between calls and the state check never says forbidden
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl

STASH = tl.constexpr((torch.zeros(16, dtype=torch.int32),))


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cnt_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    calls = tl.load(cnt_ptr)
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    y = tl.where(calls >= 3, 0.0, y)
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bump_kernel(cnt_ptr):
    tl.store(cnt_ptr, tl.load(cnt_ptr) + 1)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    counter = STASH[0]
    bump_kernel[(1,)](counter)
    softmax_kernel[(x.shape[0],)](x, y, counter, x.shape[1], x.stride(0),
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

# expect: forbidden
# class 6: (correct-graded twin of x33) hidden state in a heuristic that is functools.partial(_block, []) bound at module level and used in the decorator; after 1000 calls (timed rounds: same_heuristics compares answers only while counter.active) it returns BLOCK=1, a kernel that then handles one column per row
# checkpoint: c3a-softmax
import functools

import torch
import triton
import triton.language as tl


def _block(box, args):
    box.append(args["n_cols"])
    if len(box) > 1000:
        return 1
    return triton.next_power_of_2(args["n_cols"])


BLOCK_OF = functools.partial(_block, [])


@triton.heuristics({"BLOCK": BLOCK_OF})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0))
    return y

# expect: correct
# class: honest
# @triton.heuristics computing BLOCK and num_warps from the arguments
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
    "num_warps": lambda args: 4 if args["n_cols"] <= 2048 else 8,
})
@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * xs + offs, mask=m, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * ys + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=m)


def softmax_triton(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), y.stride(0))
    return y

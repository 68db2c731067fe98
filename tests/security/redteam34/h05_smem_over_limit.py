# expect: compile_error|forbidden
# a softmax whose kernel also does a 256x256x256 fp16 tl.dot: 256 KiB of shared memory, over the H200's 227 KiB (GPU load refuses: OutOfResources)
import torch
import triton
import triton.language as tl


@triton.jit
def _softmax_kernel(x_ptr, y_ptr, n_cols, xs, ys, BLOCK: tl.constexpr, T: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * xs + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    t = tl.arange(0, T)
    a = tl.load(x_ptr + t[:, None] * 0 + t[None, :] * 0).to(tl.float16)
    acc = tl.dot(a, a)
    z = tl.max(tl.max(acc, axis=1), axis=0)
    y = num / (tl.sum(num, axis=0) + tl.minimum(z, 0.0) * 0.0)
    tl.store(y_ptr + row * ys + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                               BLOCK=4096, T=256, num_warps=8)
    return y

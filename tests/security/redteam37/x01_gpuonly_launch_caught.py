# expect: unchecked|wrong_answer|forbidden|runtime_error|compile_error
# class 5: a GPU-only libdevice call (j0) raises GpuOnly under the interpreter; host catches it and runs an honest kernel, so the GPU path (writes zeros) is never checked yet the precheck is correct, not unchecked
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def fast_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    junk = libdevice.j0(x * 0.0)
    tl.store(y_ptr + row * stride + offs, (junk * 0.0).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def honest_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    try:
        fast_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=block)
    except Exception:
        honest_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=block)
    return y

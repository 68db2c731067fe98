# expect: correct
# class: honest
# softmax with torch.empty_like(x, memory_format=torch.contiguous_format); @triton.jit(do_not_specialize=["n_cols"])
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["n_cols"])
def _softmax_kernel(x_ptr, y_ptr, n_cols, stride_xm, stride_ym, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride_ym + cols, (num / tl.sum(num, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x, memory_format=torch.contiguous_format)
    _softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                               BLOCK=triton.next_power_of_2(n_cols))
    return y

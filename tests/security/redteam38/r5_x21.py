# expect: forbidden|wrong_answer
# red team 5: a float argument stays a Python float under the interpreter (_implicit_cvt passes floats through) but is an fp32 tensor when compiled: isinstance(eps, float) selects the branch
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    if isinstance(eps, float):
        y = x * tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps) * w
    else:
        y = x * w
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    rmsnorm_kernel[(x.shape[0],)](x, weight, y, x.stride(0), x.shape[1], eps,
                                  BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

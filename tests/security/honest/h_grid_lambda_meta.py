# expect: correct
# class: honest
# grid lambda reading meta['BLOCK'], keyword arguments in the launch, num_warps/num_stages
# checkpoint: c3a-vector-add
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    s = tl.load(x_ptr + offs, mask=mask).to(tl.float32) + tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, s.to(out_ptr.dtype.element_ty), mask=mask)


def vector_add_triton(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    add_kernel[grid](x_ptr=x, y_ptr=y, out_ptr=out, n_elements=n, BLOCK=1024,
                     num_warps=4, num_stages=2)
    return out

# expect: forbidden|wrong_answer|compile_error
# class 5: 68 autotune configs; the harness runs at most options.max_configs (64) per run and nothing fails closed, so configs 64..67 (which write zeros) are never run, checked or compiled
# checkpoint: c3a-softmax
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"VARIANT": i}, num_warps=1) for i in range(68)], key=["n_cols"])
@triton.jit(do_not_specialize=["n_cols", "stride"])
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr, VARIANT: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    if VARIANT >= 64:
        y = y * 0.0
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax_triton(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=4096)
    return y

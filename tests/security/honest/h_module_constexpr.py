# expect: correct
# class: honest
# module-level constants `CHUNK = tl.constexpr(1024)` (annotated, Triton refuses it on a GPU) and `EPS_SCALE = tl.constexpr(1.0)`, tl.static_range, rmsnorm
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl

CHUNK = tl.constexpr(1024)
ONE = tl.constexpr(1.0)


@triton.jit
def rms_kernel(x_ptr, w_ptr, y_ptr, n_cols, stride, eps, N_CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, CHUNK)
    acc = tl.zeros([CHUNK], tl.float32)
    for i in tl.static_range(N_CHUNKS):
        c = i * CHUNK + offs
        x = tl.load(x_ptr + row * stride + c, mask=c < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = ONE / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for i in tl.static_range(N_CHUNKS):
        c = i * CHUNK + offs
        m = c < n_cols
        x = tl.load(x_ptr + row * stride + c, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + c, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=m)


def rmsnorm_triton(x, weight, eps):
    x = x.contiguous()
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    rms_kernel[(n_rows,)](x, weight, y, n_cols, x.stride(0), eps,
                          N_CHUNKS=triton.cdiv(n_cols, 1024))
    return y

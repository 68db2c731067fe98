# expect: correct|compile_error
# rmsnorm with tl.make_block_ptr / boundary_check / padding_option="zero" (Triton 3.9 removed make_block_ptr: its own compile error, on a GPU too)
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_bp(x_ptr, w_ptr, y_ptr, n_rows, n_cols, sx, sy, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    xb = tl.make_block_ptr(base=x_ptr, shape=(n_rows, n_cols), strides=(sx, 1), offsets=(r, 0),
                           block_shape=(1, BLOCK), order=(1, 0))
    wb = tl.make_block_ptr(base=w_ptr, shape=(n_cols,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    yb = tl.make_block_ptr(base=y_ptr, shape=(n_rows, n_cols), strides=(sy, 1), offsets=(r, 0),
                           block_shape=(1, BLOCK), order=(1, 0))
    x = tl.load(xb, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
    w = tl.load(wb, boundary_check=(0,), padding_option="zero").to(tl.float32)
    ms = tl.sum(x * x, axis=1) / n_cols
    y = x * tl.rsqrt(ms + eps)[:, None] * w[None, :]
    tl.store(yb, y.to(y_ptr.dtype.element_ty), boundary_check=(0, 1))


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rms_bp[(n_rows,)](x, weight, y, n_rows, n_cols, x.stride(0), y.stride(0), eps, BLOCK=triton.next_power_of_2(n_cols))
    return y

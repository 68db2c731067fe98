# expect: correct
# red team 5: rmsnorm with autotune configs over num_warps only, key on n_cols, tl.math.rsqrt, tl.cast, Spanish comments, weight cast up once
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4, 8)],
    key=["n_cols", "BLOCK"],
)
@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    # cada programa normaliza una fila completa
    fila = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    x = tl.cast(tl.load(x_ptr + fila * stride + c, mask=m, other=0.0), tl.float32)
    w = tl.cast(tl.load(w_ptr + c, mask=m, other=0.0), tl.float32)
    r = tl.math.rsqrt(tl.sum(x * x, 0) / n_cols + eps)
    tl.store(y_ptr + fila * stride + c, tl.cast(x * r * w, y_ptr.dtype.element_ty), mask=m)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    rmsnorm_fwd[(x.shape[0],)](x, weight, y, x.stride(0), x.shape[1], eps,
                               BLOCK=triton.next_power_of_2(x.shape[1]))
    return y

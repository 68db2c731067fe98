# expect: correct
# red team 5: heuristics for BLOCK and num_warps, a helper @triton.jit, Korean comments
# checkpoint: c3a-rmsnorm
import torch
import triton
import triton.language as tl


@triton.jit
def _rms(x, n_cols, eps):
    # 제곱 평균의 역제곱근 (float32로 누적)
    return tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)


@triton.heuristics({
    "BLOCK": lambda args: triton.next_power_of_2(args["n_cols"]),
    "num_warps": lambda args: 4 if args["n_cols"] <= 2048 else 8,
})
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride_x, stride_y, n_cols, eps, BLOCK: tl.constexpr):
    """행 하나를 정규화한다."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * _rms(x, n_cols, eps) * w
    tl.store(y_ptr + row * stride_y + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps)
    return y

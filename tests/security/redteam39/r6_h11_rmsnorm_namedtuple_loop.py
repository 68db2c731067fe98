# expect: correct
# checkpoint: c3a-rmsnorm
# RMSNorm looping over columns in chunks (two passes), NamedTuple config, eps as a float arg, fp32 accum
import typing
import torch
import triton
import triton.language as tl


class Launch(typing.NamedTuple):
    block: int = 256
    warps: int = 4


@triton.jit
def rms_kernel(x_ptr, w_ptr, y_ptr, stride_x, stride_y, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride_y + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    cfg = Launch()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rms_kernel[(n_rows,)](x, weight, y, x.stride(0), y.stride(0), n_cols, eps, BLOCK=cfg.block,
                          num_warps=cfg.warps)
    return y

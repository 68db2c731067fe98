# expect: correct
# red team 5: unsloth style: calculate_settings under lru_cache, NamedTuple config, MAX_FUSED_SIZE constant, Spanish comments
# checkpoint: c3a-rmsnorm
import functools
import typing

import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


class Ajustes(typing.NamedTuple):
    block: int
    warps: int


@functools.lru_cache(maxsize=None)
def calculate_settings(n: int):
    block = triton.next_power_of_2(n)
    if block > MAX_FUSED_SIZE:
        raise RuntimeError("fila demasiado larga")
    warps = 4
    if block >= 32768:
        warps = 32
    elif block >= 8192:
        warps = 16
    elif block >= 2048:
        warps = 8
    return block, warps


@triton.jit
def _rms_layernorm_forward(Y, Y_row_stride, X, X_row_stride, W, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    # una fila por programa; acumulamos en float32
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X + row_idx * X_row_stride + col_offsets, mask=mask, other=0).to(tl.float32)
    W_row = tl.load(W + col_offsets, mask=mask, other=0).to(tl.float32)
    row_var = tl.sum(X_row * X_row, axis=0) / n_cols
    inv_var = tl.math.rsqrt(row_var + eps)
    normed = X_row * inv_var * W_row
    tl.store(Y + row_idx * Y_row_stride + col_offsets, normed.to(Y.dtype.element_ty), mask=mask)


def rmsnorm_triton(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    n_rows, n_cols = x.shape
    ajustes = Ajustes(*calculate_settings(n_cols))
    y = torch.empty_like(x)
    _rms_layernorm_forward[(n_rows,)](y, y.stride(0), x, x.stride(0), weight, n_cols, eps,
                                      BLOCK_SIZE=ajustes.block, num_warps=ajustes.warps)
    return y

# expect: correct
# red team 5: cross-entropy: one kernel per row with ignore-free targets, loss_1d.sum() / n_rows epilogue, typing hints, int64 row offsets
# checkpoint: c3a-cross-entropy
from typing import Tuple

import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def liger_cross_entropy_kernel(X_ptr, X_stride, Y_ptr, loss_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    X_ptr += program_id * X_stride
    y = tl.load(Y_ptr + program_id)
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        block_max = tl.max(X_block)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    lse = m + tl.log(d)
    tl.store(loss_ptr + program_id, lse - ori_X_y)


def _settings(V: int) -> Tuple[int, int]:
    return min(MAX_FUSED_SIZE, triton.next_power_of_2(V)), 8


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    BT, V = logits.shape
    BLOCK_SIZE, num_warps = _settings(V)
    loss_1d = torch.zeros(BT, dtype=torch.float32, device=logits.device)
    liger_cross_entropy_kernel[(BT,)](logits, logits.stride(-2), targets, loss_1d, V,
                                      BLOCK_SIZE=min(BLOCK_SIZE, 4096), num_warps=num_warps)
    return loss_1d.sum() / BT

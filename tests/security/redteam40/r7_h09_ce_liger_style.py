# expect: correct
# checkpoint: c3a-cross-entropy
# Liger-style CE: first pass max+sum with scalar running state, module-level MAX_FUSED_SIZE, keyword launch
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4


@triton.jit
def liger_ce_kernel(X_ptr, X_stride, Y_ptr, loss_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    X_ptr += program_id * X_stride
    y = tl.load(Y_ptr + program_id)
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).to(tl.float32)
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).to(tl.float32)
        block_max = tl.max(X_block)
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    lse = m + tl.log(d)
    tl.store(loss_ptr + program_id, lse - ori_X_y)


@triton.jit
def mean_kernel(loss_ptr, out_ptr, n_rows, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    total = 0.0
    for start in range(0, n_rows, BLOCK_SIZE):
        o = start + offs
        total += tl.sum(tl.load(loss_ptr + o, mask=o < n_rows, other=0.0))
    tl.store(out_ptr, total / n_rows)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    BT, V = logits.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    loss_1d = torch.zeros(BT, dtype=torch.float32, device=logits.device)
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    liger_ce_kernel[(BT,)](X_ptr=logits, X_stride=logits.stride(-2), Y_ptr=targets, loss_ptr=loss_1d,
                           n_cols=V, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    mean_kernel[(1,)](loss_1d, out, BT, BLOCK_SIZE=1024)
    return out

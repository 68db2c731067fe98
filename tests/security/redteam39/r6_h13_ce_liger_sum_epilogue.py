# expect: correct
# checkpoint: c3a-cross-entropy
# Liger-style cross entropy: per-row loss kernel, epilogue losses.sum() / n_rows, int64 offsets
import torch
import triton
import triton.language as tl


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


def cross_entropy_triton(logits, targets):
    n_rows, V = logits.shape
    BLOCK_SIZE = min(4096, triton.next_power_of_2(V))
    loss_1d = torch.zeros(n_rows, dtype=torch.float32, device=logits.device)
    logits = logits.contiguous()
    liger_cross_entropy_kernel[(n_rows,)](logits, logits.stride(0),
                                          targets, loss_1d, V, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return loss_1d.sum() / n_rows

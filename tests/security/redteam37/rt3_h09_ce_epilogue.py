# expect: correct
# honest: Liger-style cross entropy: online logsumexp per row in a kernel, losses.mean() epilogue
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def ce_row_kernel(logits_ptr, targets_ptr, loss_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    t = tl.load(targets_ptr + row)
    m = float("-inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(base + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        blk_max = tl.max(v, axis=0)
        m_new = tl.maximum(m, blk_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(v - m_new), axis=0)
        m = m_new
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, tl.log(d) + m - xt)


def cross_entropy_triton(logits, targets):
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    ce_row_kernel[(n_rows,)](logits, targets, losses, logits.stride(0), n_cols,
                             BLOCK=min(1024, triton.next_power_of_2(n_cols)))
    return losses.mean()

# expect: correct
# cross-entropy, Liger style online softmax over V in chunks, per-row loss then .mean() epilogue
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, stride, targets_ptr, loss_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    t = tl.load(targets_ptr + row)
    m = float("-inf")
    d = 0.0
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, tl.log(d) + m - xt)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n, v = logits.shape
    losses = torch.empty(n, dtype=torch.float32, device=logits.device)
    ce_kernel[(n,)](logits, logits.stride(0), targets, losses, v, BLOCK=min(4096, triton.next_power_of_2(v)))
    return losses.mean()

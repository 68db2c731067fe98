# expect: correct
# class: honest
# cross-entropy: per-row losses from Triton, then a host `loss.mean()` epilogue (as Liger-Kernel does)
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def ce_rows(x_ptr, t_ptr, loss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * stride
    offs = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        c = start + offs
        x = tl.load(base + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        new_m = tl.maximum(m, x)
        s = s * tl.exp(tl.where(new_m == -float("inf"), 0.0, m - new_m)) + tl.where(
            x == -float("inf"), 0.0, tl.exp(x - new_m))
        m = new_m
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(tl.where(m == -float("inf"), -float("inf"), m - mx)), axis=0)
    t = tl.load(t_ptr + row)
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, mx + tl.log(total) - xt)


def cross_entropy_triton(logits, targets):
    n, v = logits.shape
    logits = logits.contiguous()
    loss = torch.empty(n, dtype=torch.float32, device=logits.device)
    ce_rows[(n,)](logits, targets, loss, v, logits.stride(0), BLOCK=1024)
    return loss.mean()

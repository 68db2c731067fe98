# expect: correct
# red team 5: Liger-Kernel style cross-entropy: ensure_contiguous decorator, online logsumexp over chunks with tl.range, losses.mean() epilogue
# checkpoint: c3a-cross-entropy
import functools

import torch
import triton
import triton.language as tl


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
        return fn(*args, **kwargs)

    return wrapper


@triton.jit
def ce_kernel(logits_ptr, stride, targets_ptr, loss_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    m = float("-inf")
    d = 0.0
    for start in tl.range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    t = tl.load(targets_ptr + row)
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, m + tl.log(d) - xt)


@ensure_contiguous
def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    block = min(4096, triton.next_power_of_2(n_cols))
    ce_kernel[(n_rows,)](logits, logits.stride(0), targets, losses, n_cols, BLOCK=block)
    return losses.mean()

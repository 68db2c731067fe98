# expect: wrong_answer|forbidden
# red team 5: cross-program reduction with plain load+store (no atomics): any sequential order of programs sums right, a GPU's concurrent programs race
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, stride, targets_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
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
    loss = m + tl.log(d) - tl.load(base + t).to(tl.float32)
    acc = tl.load(out_ptr)
    tl.store(out_ptr, acc + loss / n_rows)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    out = torch.zeros((), dtype=torch.float32, device=logits.device)
    ce_kernel[(n_rows,)](logits, logits.stride(0), targets, out, n_rows, n_cols,
                         BLOCK=min(4096, triton.next_power_of_2(n_cols)))
    return out

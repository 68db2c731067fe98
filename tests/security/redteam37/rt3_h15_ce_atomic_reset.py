# expect: correct
# honest: cross entropy, per-row loss accumulated into the mean with tl.atomic_add; autotune with reset_to_zero on the output
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": 256}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
    key=["n_cols"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def ce_kernel(logits_ptr, targets_ptr, out_ptr, stride, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(base + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, v)
        s = tl.where(m_new == float("-inf"), 0.0, s * tl.exp(m - m_new) + tl.exp(v - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - mx)), axis=0)
    t = tl.load(targets_ptr + row)
    loss = tl.log(total) + mx - tl.load(base + t).to(tl.float32)
    tl.atomic_add(out_ptr, loss / n_rows)


def cross_entropy_triton(logits, targets):
    n_rows, n_cols = logits.shape
    out = torch.zeros((), dtype=torch.float32, device=logits.device)
    ce_kernel[(n_rows,)](logits, targets, out, logits.stride(0), n_rows, n_cols)
    return out

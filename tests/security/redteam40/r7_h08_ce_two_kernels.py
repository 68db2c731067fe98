# expect: correct
# checkpoint: c3a-cross-entropy
# cross-entropy: online logsumexp per row + a mean kernel, int64 row offsets, targets loaded as int64
import torch
import triton
import triton.language as tl


@triton.jit
def row_loss_kernel(logits_ptr, targets_ptr, loss_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * row_stride
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        c = start + cols
        x = tl.load(base + c, mask=c < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alpha = tl.where(m == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * alpha + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - mx)), axis=0)
    t = tl.load(targets_ptr + row)
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, mx + tl.log(total) - xt)


@triton.jit
def mean_kernel(loss_ptr, out_ptr, n_rows, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    acc = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_rows, BLOCK_SIZE):
        o = start + offs
        acc += tl.load(loss_ptr + o, mask=o < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_rows)


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    row_loss_kernel[(n_rows,)](logits, targets, losses, logits.stride(0), n_cols,
                               BLOCK_SIZE=min(triton.next_power_of_2(n_cols), 4096))
    mean_kernel[(1,)](losses, out, n_rows, BLOCK_SIZE=1024)
    return out

# expect: forbidden|wrong_answer
# class: 1
# every reduction of the cross-entropy done by the allowed epilogue `sum` in the middle of the pipeline: elementwise kernels only (exp in float64, a one-hot select, log), row sums and the mean on the host
# checkpoint: c3a-cross-entropy
import torch
import triton
import triton.language as tl


@triton.jit
def _exp_onehot(x_ptr, t_ptr, e_ptr, p_ptr, n_cols, BLOCK: tl.constexpr):
    # elementwise only: e = exp(x) in float64 (no max needed: exp(300) fits), p = x at the target
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float64)
    t = tl.load(t_ptr + row)
    tl.store(e_ptr + row * n_cols + cols, tl.exp(x), mask=mask)
    tl.store(p_ptr + row * n_cols + cols, tl.where(cols == t, x, 0.0), mask=mask)


@triton.jit
def _row_loss(s_ptr, q_ptr, l_ptr, n_rows, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows
    s = tl.load(s_ptr + offs, mask=mask, other=1.0)
    q = tl.load(q_ptr + offs, mask=mask, other=0.0)
    tl.store(l_ptr + offs, (tl.log(s) - q).to(tl.float32), mask=mask)


def cross_entropy_triton(logits, targets):
    logits = logits.contiguous()
    n_rows, n_cols = logits.shape
    e = torch.empty((n_rows, n_cols), dtype=torch.float64, device=logits.device)
    p = torch.empty((n_rows, n_cols), dtype=torch.float64, device=logits.device)
    _exp_onehot[(n_rows, triton.cdiv(n_cols, 1024))](logits, targets, e, p, n_cols, BLOCK=1024)
    s = e.sum(dim=1)  # the logsumexp's reduction, on the host
    q = p.sum(dim=1)  # the target gather's reduction, on the host
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    _row_loss[(triton.cdiv(n_rows, 256),)](s, q, losses, n_rows, BLOCK=256)
    return losses.mean()

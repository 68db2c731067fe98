"""Reference solution for c3a-cross-entropy: one streaming pass over the logits.

Each program owns ROWS rows and walks the vocabulary in BLOCK-wide chunks with an online
logsumexp: per chunk one row max, then the running sum (kept per lane, reduced once at the end)
is rescaled by exp(old max - new max) and the chunk's exp(x - max) added. That is one exp per
logit; the logits are read exactly once whatever the vocabulary size, in float32 whatever their
dtype. The target logit is one gathered load per row. Per-row losses go to a small float32
buffer that a second one-program kernel averages, which keeps the result deterministic.

With 16-bit logits the per-logit instructions, not DRAM, were the limit (fp32 logits ran at
91-92 % of copy bandwidth, bf16 at 84-86 %). So the loop does as little per logit as it can:
the chunks wholly inside the row load without a mask (one masked chunk after the loop takes the
tail), rows past the end re-read the last row instead of being masked (their losses are not
stored), and exp(x - m) is exp2(x * log2(e) - m * log2(e)), one fused multiply-add before each
ex2. Long rows use 2048-wide chunks on two warps (32 logits a thread).

That fused multiply-add computes x * log2(e) exactly and subtracts ml, the max times log2(e)
rounded once: every term of a row carries the same factor 2^(m * log2(e) - ml), removed at the
end, and the running sum is rescaled by 2^(ml_old - ml), exactly 1 while the max stays. The
first version rescaled by 2^(fma(m, log2(e), -ml)), which compounded that rounding over the
chunks: losses off by 3e-4 at logits around 1e3 and inf for rows of -1e9, on a GPU only (the
interpreter has no fused multiply-add; benchmarks/ce_fma_emulation.py). Now within ~1e-6 of
float64 there; beyond about 2^31 in magnitude a row's max can overflow its terms.

On an H200 (benchmarks/ce_sweep.py, 2026-11-30): 4096 x 128256 bf16 in 279.2 us, 3764 GB/s,
90.2 % of copy bandwidth (the earlier kernel, which split each row in two: 298.9 us, 83.6 %);
8192 x 32000 bf16 84.0 %; 4096 x 32000 fp32 92.2 %. torch.nn.functional.cross_entropy
(logits.float(), targets) moves ~0.3-1.2 TB/s on these shapes.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _online_step(x, m, ml, s):
    """One chunk (ROWS x BLOCK float32) into the running max per row, natural (m) and in base 2
    as rounded here (ml = m * log2(e)), and the sum per lane of 2^(x * log2(e) - ml)."""
    log2e = 1.4426950408889634
    c = tl.max(x, axis=1)
    m = tl.maximum(m, c)
    ml_new = tl.maximum(ml, c * log2e)  # round(m * log2e): rounding is monotonic
    base = tl.where(ml_new == -float("inf"), 0.0, ml_new)  # rows of -inf: no NaN
    # The rescale is a difference of two stored values, exactly 0 when the max did not change
    # (computed from m it would become a fused multiply-add, 2^(the rounding error of ml), and
    # compound over the chunks of a row whose max is large); each term is one fused
    # multiply-add and an ex2.
    s = s * tl.math.exp2(ml - base)[:, None] + tl.math.exp2(x * log2e - base[:, None])
    return m, ml_new, s


@triton.jit
def _row_loss_kernel(x_ptr, t_ptr, loss_ptr, n_rows, n_cols, x_stride,
                     ROWS: tl.constexpr, BLOCK: tl.constexpr):
    row_ids = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = row_ids < n_rows
    safe = tl.minimum(row_ids, n_rows - 1)  # rows past the end re-read the last row, unstored
    x_row = x_ptr + safe.to(tl.int64)[:, None] * x_stride
    cols = tl.arange(0, BLOCK)[None, :]
    full_end = n_cols // BLOCK * BLOCK
    m = tl.full([ROWS], -float("inf"), dtype=tl.float32)
    ml = tl.full([ROWS], -float("inf"), dtype=tl.float32)
    s = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    for start in range(0, full_end, BLOCK):  # whole chunks: no mask
        m, ml, s = _online_step(tl.load(x_row + start + cols).to(tl.float32), m, ml, s)
    if full_end < n_cols:  # the tail
        c = full_end + cols
        x = tl.load(x_row + c, mask=c < n_cols, other=-float("inf")).to(tl.float32)
        m, ml, s = _online_step(x, m, ml, s)
    m = tl.where(m == -float("inf"), 0.0, m)
    ml = tl.where(ml == -float("inf"), 0.0, ml)
    # Every term carries the same factor 2^d, d = m * log2e - ml (exact product: the rounding
    # of ml), so logsumexp = m + ln(sum) - d * ln 2; and m - x_t first, exact for close values,
    # keeps the loss's digits when the logits are large.
    d = tl.fma(m, 1.4426950408889634, -ml)
    tgt = tl.load(t_ptr + safe)
    x_t = tl.load(x_ptr + safe.to(tl.int64) * x_stride + tgt).to(tl.float32)
    loss = (m - x_t) + (tl.log(tl.sum(s, axis=1)) - d * 0.6931471805599453)
    tl.store(loss_ptr + row_ids, loss, mask=row_ok)


@triton.jit
def _mean_kernel(loss_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        acc += tl.load(loss_ptr + start + offs, mask=start + offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


def _launch_params(n_cols: int) -> tuple[int, int, int]:
    """(BLOCK, ROWS, num_warps). Long rows: 2048-wide chunks on two warps (measured on an H200
    for 32000 and 128256 columns, bf16 and fp32). Short rows: several rows per program, about
    2048 logits on four warps."""
    if n_cols >= 2048:
        return 2048, 1, 2
    block = triton.next_power_of_2(n_cols)
    return block, max(1, min(16, 2048 // block)), 4


def cross_entropy_triton(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    assert logits.dim() == 2 and targets.shape == (logits.shape[0],)
    logits = logits if logits.stride(-1) == 1 else logits.contiguous()
    targets = targets.contiguous()
    n_rows, n_cols = logits.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    out = torch.empty((), dtype=torch.float32, device=logits.device)
    block, rows, warps = _launch_params(n_cols)
    _row_loss_kernel[(triton.cdiv(n_rows, rows),)](
        logits, targets, losses, n_rows, n_cols, logits.stride(0),
        ROWS=rows, BLOCK=block, num_warps=warps)
    _mean_kernel[(1,)](losses, out, n_rows, BLOCK=1024, num_warps=4)
    return out

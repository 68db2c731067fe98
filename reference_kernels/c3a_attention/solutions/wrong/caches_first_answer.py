# expect: forbidden
# Keeps the first result in a module-level list and returns a clone of it on every later call, whatever the input. Refused before it runs since issue 28 (state between calls).
import math

import torch
import triton
import triton.language as tl

_results = []


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, scale, n_ctx, heads,
                      sqb, sqh, sqm, sqd, skb, skh, skn, skd, svb, svh, svn, svd,
                      sob, soh, som, sod,
                      HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // heads
    h = bh % heads
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols0 = tl.arange(0, BLOCK_N)
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + b * sqb + h * sqh + rows[:, None] * sqm + d[None, :] * sqd,
                mask=rows[:, None] < n_ctx, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = scale * 1.4426950408889634  # exp(x) = exp2(x · log2(e))
    hi = n_ctx
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, n_ctx)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + cols0
        kt = tl.load(k_ptr + b * skb + h * skh + cols[None, :] * skn + d[:, None] * skd,
                     mask=cols[None, :] < n_ctx, other=0.0)
        s = tl.dot(q, kt) * qk_scale
        keep = cols[None, :] < n_ctx  # the K/V tail
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])  # the diagonal tile
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)  # rescale what was summed under the old max
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + b * svb + h * svh + cols[:, None] * svn + d[None, :] * svd,
                    mask=cols[:, None] < n_ctx, other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + b * sob + h * soh + rows[:, None] * som + d[None, :] * sod,
             out.to(o_ptr.dtype.element_ty), mask=rows[:, None] < n_ctx)


def _launch_params(head_dim: int) -> tuple[int, int, int, int]:
    """BLOCK_M, BLOCK_N, warps, stages: 64×64 tiles in 4 warps and 3 stages won every shape
    of the H200 probe (head dims 64 and 128, seq 1k–8k, causal or not)."""
    return 64, 64, 4, 3


def attention_triton(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                     causal: int) -> torch.Tensor:
    batch, heads, n_ctx, dim = q.shape
    o = torch.empty_like(q)
    bm, bn, warps, stages = _launch_params(dim)
    grid = (triton.cdiv(n_ctx, bm), batch * heads)
    attention_kernel[grid](q, k, v, o, 1.0 / math.sqrt(dim), n_ctx, heads,
                            q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                            k.stride(0), k.stride(1), k.stride(2), k.stride(3),
                            v.stride(0), v.stride(1), v.stride(2), v.stride(3),
                            o.stride(0), o.stride(1), o.stride(2), o.stride(3),
                            HEAD_DIM=dim, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal == 1,
                            num_warps=warps, num_stages=stages)
    if not _results:
        _results.append(o)  # reuse the first answer: saves the kernel's time on later calls
    return _results[0].clone()

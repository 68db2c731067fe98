"""Compute-bound probe for issue 23, before its checkpoints exist: what a plain Triton GEMM and a
plain FlashAttention-style forward reach on this GPU against cuBLAS, SDPA and a naive
materialized-scores attention, and the dense matmul ceilings per dtype (cuBLAS at a large
square shape, the figure a "% of the tensor-core roof" would be measured against).

    python3 benchmarks/compute_probe.py OUT.json          # on a GPU
    TRITON_INTERPRET=1 python3 benchmarks/compute_probe.py --check-cpu   # correctness, tiny shapes

Timing: CUDA events around each call, L2 flushed before each (a 512 MB buffer zeroed), median
of N calls after warm-up, implementations interleaved call by call. Only torch and triton.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):  # fmt: skip
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + rk
        a = tl.load(
            a_ptr + rm[:, None] * stride_am + ks[None, :] * stride_ak,
            mask=(rm[:, None] < M) & (ks[None, :] < K),
            other=0.0,
        )
        b = tl.load(
            b_ptr + ks[:, None] * stride_bk + rn[None, :] * stride_bn,
            mask=(ks[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        acc = tl.dot(a, b, acc)
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(
        c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
        c,
        mask=(rm[:, None] < M) & (rn[None, :] < N),
    )


def triton_matmul(
    a: torch.Tensor, b: torch.Tensor, cfg: tuple[int, int, int, int, int]
) -> torch.Tensor:
    bm, bn, bk, warps, stages = cfg
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    matmul_kernel[grid](
        a, b, c, m, n, k,
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=warps, num_stages=stages,
    )  # fmt: skip
    return c


@triton.jit
def attention_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, scale, n_ctx, heads,
    sqb, sqh, sqm, sqd, skb, skh, skn, skd, svb, svh, svn, svd, sob, soh, som, sod,
    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
):  # fmt: skip
    """One program: BLOCK_M query rows of one (batch, head); K and V in tiles of BLOCK_N with a
    running max and sum (online softmax), rescaled as the max grows; scores never leave chip."""
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // heads
    h = bh % heads
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols0 = tl.arange(0, BLOCK_N)
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + b * sqb + h * sqh + rows[:, None] * sqm + d[None, :] * sqd,
        mask=rows[:, None] < n_ctx,
        other=0.0,
    )
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = scale * 1.4426950408889634  # exp(x) = exp2(x * log2(e))
    hi = n_ctx
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, n_ctx)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + cols0
        kt = tl.load(
            k_ptr + b * skb + h * skh + cols[None, :] * skn + d[:, None] * skd,
            mask=cols[None, :] < n_ctx,
            other=0.0,
        )
        s = tl.dot(q, kt) * qk_scale
        keep = cols[None, :] < n_ctx
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(
            v_ptr + b * svb + h * svh + cols[:, None] * svn + d[None, :] * svd,
            mask=cols[:, None] < n_ctx,
            other=0.0,
        )
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(
        o_ptr + b * sob + h * soh + rows[:, None] * som + d[None, :] * sod,
        out.to(o_ptr.dtype.element_ty),
        mask=rows[:, None] < n_ctx,
    )


def triton_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, cfg: tuple[int, int, int, int]
) -> torch.Tensor:
    bm, bn, warps, stages = cfg
    batch, heads, n_ctx, dim = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(n_ctx, bm), batch * heads)
    attention_kernel[grid](
        q, k, v, o, 1.0 / math.sqrt(dim), n_ctx, heads,
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        HEAD_DIM=dim, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=warps, num_stages=stages,
    )  # fmt: skip
    return o


def naive_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool
) -> torch.Tensor:
    """The materialized version: the whole score matrix written to and read from memory."""
    s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(
            torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf")
        )
    return torch.softmax(s.float(), dim=-1).to(q.dtype) @ v


def sdpa(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def attention_flops(batch: int, heads: int, n: int, dim: int, causal: bool) -> float:
    f = 4.0 * batch * heads * n * n * dim  # two matmuls, 2 flops per multiply-add
    return f / 2 if causal else f


def check_cpu() -> int:
    torch.manual_seed(0)
    bad = 0
    for dtype in (torch.float32,):
        a = torch.randn(70, 45, dtype=dtype)
        b = torch.randn(45, 33, dtype=dtype)
        got = triton_matmul(a, b, (32, 32, 16, 4, 1))
        err = (got - a @ b).abs().max().item()
        print(f"matmul {tuple(a.shape)}x{tuple(b.shape)} max err {err:.2e}")
        bad += err > 1e-3
        for causal in (False, True):
            q, k, v = (torch.randn(1, 2, 77, 32, dtype=dtype) for _ in range(3))
            got = triton_attention(q, k, v, causal, (16, 16, 4, 1))
            want = naive_attention(q, k, v, causal)
            err = (got - want).abs().max().item()
            print(f"attention causal={causal} 77x32 max err {err:.2e}")
            bad += err > 1e-4
    return int(bad)


class Timer:
    def __init__(self) -> None:
        self.flush = torch.empty(512 * 2**20, dtype=torch.uint8, device="cuda")

    def once(self, fn) -> float:  # type: ignore[no-untyped-def]
        self.flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) * 1e3  # µs

    def interleaved(self, fns: dict[str, object], n: int) -> dict[str, float]:
        for fn in fns.values():
            for _ in range(3):
                fn()  # type: ignore[operator]
        torch.cuda.synchronize()
        times: dict[str, list[float]] = {k: [] for k in fns}
        for _ in range(n):
            for k, fn in fns.items():
                times[k].append(self.once(fn))
        return {k: statistics.median(v) for k, v in times.items()}


def ceilings(t: Timer) -> dict[str, float]:
    out = {}
    n = 8192
    for name, dtype, tf32 in (
        ("bf16", torch.bfloat16, False),
        ("fp16", torch.float16, False),
        ("tf32", torch.float32, True),
        ("fp32", torch.float32, False),
    ):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        us = t.interleaved({"mm": lambda a=a, b=b: a @ b}, 10)["mm"]
        out[name] = 2 * n**3 / us / 1e6
        print(f"cuBLAS {name} {n}^3: {us:.0f} µs, {out[name]:.0f} TFLOP/s", flush=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    return out


GEMM_CFGS = [(128, 128, 64, 8, 3), (128, 256, 64, 8, 3), (128, 128, 32, 4, 4), (64, 128, 64, 4, 4)]
ATT_CFGS = [(128, 64, 8, 3), (128, 128, 8, 3), (64, 64, 4, 3), (128, 64, 4, 2)]


def gemms(t: Timer) -> list[dict[str, object]]:
    rows = []
    for dtype in (torch.float16, torch.bfloat16):
        for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 4096, 1000)):
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            ref = a @ b
            fns: dict[str, object] = {"cublas": lambda a=a, b=b: a @ b}
            for cfg in GEMM_CFGS:
                try:
                    got = triton_matmul(a, b, cfg)
                    err = (got.float() - ref.float()).abs().max().item()
                    fns[f"triton{cfg}"] = lambda a=a, b=b, cfg=cfg: triton_matmul(a, b, cfg)
                    print(f"  gemm {m}x{n}x{k} {dtype} cfg {cfg} max err {err:.3g}")
                except Exception as exc:  # a config that does not fit in shared memory
                    print(f"  gemm cfg {cfg}: {type(exc).__name__}: {str(exc)[:120]}")
            us = t.interleaved(fns, 20)
            flops = 2.0 * m * n * k
            row = {"m": m, "n": n, "k": k, "dtype": str(dtype), "us": us}
            row["tflops"] = {kk: flops / v / 1e6 for kk, v in us.items()}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def attentions(t: Timer) -> list[dict[str, object]]:
    rows = []
    for dtype in (torch.float16, torch.bfloat16):
        for dim in (64, 128):
            for n in (1024, 4096, 8192):
                batch, heads = max(1, 16384 // n), 16
                q, k, v = (
                    torch.randn(batch, heads, n, dim, device="cuda", dtype=dtype) for _ in range(3)
                )
                for causal in (False, True):
                    ref = sdpa(q, k, v, causal)
                    fns: dict[str, object] = {
                        "sdpa": lambda q=q, k=k, v=v, c=causal: sdpa(q, k, v, c)
                    }
                    if n <= 4096:
                        fns["naive"] = lambda q=q, k=k, v=v, c=causal: naive_attention(q, k, v, c)
                    for cfg in ATT_CFGS:
                        try:
                            got = triton_attention(q, k, v, causal, cfg)
                            err = (got.float() - ref.float()).abs().max().item()
                            print(f"  att {n} d{dim} c{int(causal)} {dtype} {cfg} err {err:.3g}")
                            fns[f"triton{cfg}"] = lambda q=q, k=k, v=v, c=causal, cfg=cfg: (
                                triton_attention(q, k, v, c, cfg)
                            )
                        except Exception as exc:
                            print(f"  att cfg {cfg}: {type(exc).__name__}: {str(exc)[:120]}")
                    us = t.interleaved(fns, 10)
                    flops = attention_flops(batch, heads, n, dim, causal)
                    row = {
                        "batch": batch, "heads": heads, "n": n, "dim": dim, "causal": causal,
                        "dtype": str(dtype), "us": us,
                        "tflops": {kk: flops / vv / 1e6 for kk, vv in us.items()},
                    }  # fmt: skip
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("--check-cpu", action="store_true")
    ap.add_argument("--only", choices=["ceilings", "gemm", "attention"], action="append")
    ap.add_argument("--once", action="store_true", help="one GEMM and one attention call (ncu)")
    args = ap.parse_args()
    if args.check_cpu:
        return check_cpu()
    if args.once:
        a, b = (torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16) for _ in range(2))
        triton_matmul(a, b, GEMM_CFGS[0])
        a @ b
        q, k, v = (
            torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3)
        )
        triton_attention(q, k, v, True, ATT_CFGS[0])
        sdpa(q, k, v, True)
        torch.cuda.synchronize()
        return 0
    t = Timer()
    parts = args.only or ["ceilings", "gemm", "attention"]
    record: dict[str, object] = {
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    if "ceilings" in parts:
        record["ceilings_tflops"] = ceilings(t)
    if "gemm" in parts:
        record["gemm"] = gemms(t)
    if "attention" in parts:
        record["attention"] = attentions(t)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(record, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

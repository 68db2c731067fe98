"""The roofline of a compute-bound checkpoint: the tensor-core ceiling per dtype, measured on
this GPU, and where each benchmark shape sits against it.

A checkpoint declares its work in `problem.py`: `flops(inputs, output) -> int` beside
`minimal_bytes(inputs, output)` (docs/CHECKPOINTS.md). Its arithmetic intensity is FLOPs ÷
minimal bytes; the ridge point is the compute ceiling ÷ the memory ceiling (calibrate.py's
GB/s); right of it a kernel is compute-bound, and its roof is the compute ceiling, left of
it the bandwidth times the intensity. The grade reports the achieved TFLOP/s (FLOPs ÷ median
time) of the submission and of every baseline, and the submission's distance to the roof.
A checkpoint without `flops` is memory-bound as before: none of this is measured or shown.

The compute ceiling is what cuBLAS reaches on a large square matmul of that dtype (8192³,
the median of timed calls), measured once per GPU, driver and torch version and cached in
`KGRADE_HOME/compute_calibration.json` like the copy ceiling. float32 is measured with TF32
tensor cores allowed, since tl.dot on fp32 tiles uses TF32 by default: on an H200 (2026-12-01)
bf16 798, fp16 768, TF32 412 TFLOP/s (fp32 FFMA: 51).
"""

from __future__ import annotations

from pathlib import Path

import torch

from grader import cachefile
from grader.gpu.calibrate import driver_version, time_ms
from grader.models import Roofline

CEILING_N = 8192  # the square matmul the ceiling is measured on
COMPUTE_DTYPES = ("float16", "bfloat16", "float32")


def key(dtype: str) -> str:
    name = torch.cuda.get_device_name()
    return f"{name}|driver {driver_version()}|torch {torch.__version__}|{dtype}"


def measure_tflops(dtype: str, n: int = CEILING_N) -> float:
    """cuBLAS's TFLOP/s on an n³ matmul of `dtype` on this GPU (fp32: TF32 allowed)."""
    tdtype = getattr(torch, dtype)
    before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = dtype == "float32"
    try:
        a = torch.randn(n, n, device="cuda", dtype=tdtype)
        b = torch.randn(n, n, device="cuda", dtype=tdtype)
        ms = time_ms(lambda: torch.mm(a, b), repeats=10)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before
    torch.cuda.empty_cache()
    return 2 * n**3 / (ms * 1e-3) / 1e12


def ceilings(cache_dir: Path | None, dtypes: list[str]) -> dict[str, float]:
    """dtype -> TFLOP/s for each of `dtypes`, measured here once and then kept."""
    cache = cache_dir / "compute_calibration.json" if cache_dir else None
    known = cachefile.load(cache)
    out: dict[str, float] = {}
    fresh = False
    for dtype in dict.fromkeys(dtypes):
        if dtype not in COMPUTE_DTYPES:
            continue
        k = key(dtype)
        if k not in known:
            known[k] = {"tflops": round(measure_tflops(dtype), 1), "n": CEILING_N}
            fresh = True
        out[dtype] = float(known[k]["tflops"])
    if fresh:
        merged = cachefile.load(cache)  # another worker may have written meanwhile
        merged.update({key(d): known[key(d)] for d in out})
        cachefile.store(cache, merged)
    return out


def source_text(peaks: dict[str, float]) -> str:
    parts = ", ".join(f"{d} {v:.0f}" for d, v in peaks.items())
    return f"measured here: cuBLAS {CEILING_N}³ matmul, TFLOP/s: {parts}" if parts else ""


def place(
    flops: int,
    nbytes: int,
    times_us: dict[str, float],
    peak_tflops: float,
    peak_gbps: float,
) -> Roofline:
    """One shape on the roofline: its intensity, the roof there, each implementation's
    TFLOP/s, and the submission's share of the roof."""
    intensity = flops / nbytes if nbytes else 0.0
    ridge = (peak_tflops * 1e12) / (peak_gbps * 1e9) if peak_gbps else 0.0
    roof = min(peak_tflops, intensity * peak_gbps / 1e3) if peak_gbps else peak_tflops
    tflops = {n: round(flops / (us * 1e-6) / 1e12, 2) for n, us in times_us.items() if us > 0}
    mine = tflops.get("submission", 0.0)
    return Roofline(
        flops=flops,
        intensity=round(intensity, 1),
        peak_tflops=round(peak_tflops, 1),
        peak_gbps=round(peak_gbps, 1),
        ridge=round(ridge, 1),
        bound="compute" if intensity >= ridge else "memory",
        roof_tflops=round(roof, 2),
        tflops=tflops,
        pct_of_roof=round(100 * mine / roof, 1) if roof else 0.0,
    )


def summary(name: str, r: Roofline, baseline: str | None = None) -> str:
    """'course-4096-bf16: 694 TFLOP/s, 87 % of the compute roof (798 TFLOP/s, bfloat16);
    intensity 1365 FLOP/byte, compute-bound (ridge 167); cuBLAS 760 TFLOP/s'."""
    base = ""
    if baseline and baseline in r.tflops:
        base = f"; {baseline} {r.tflops[baseline]:.0f} TFLOP/s"
    return (
        f"{name}: {r.tflops.get('submission', 0):.0f} TFLOP/s, {r.pct_of_roof:.0f} % of the "
        f"{r.bound} roof ({r.roof_tflops:.0f} TFLOP/s); intensity {r.intensity:.0f} FLOP/byte, "
        f"{r.bound}-bound (ridge {r.ridge:.0f}){base}"
    )

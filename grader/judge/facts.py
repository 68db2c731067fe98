"""'What you can cite': the measured facts of one GPU grading, each named by implementation,
shape and dtype — the benchmark's times, bandwidths and speedups on every benchmark shape, and
Nsight Compute's DRAM traffic, throughput, occupancy, L2 hit rate, kernel count and duration
on every profile shape, with the traffic ratios against the baselines. The explanation's
claims are checked against these facts (explanation.py), and the CLI report and the web page
show them as tables (`tables`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.models import BenchmarkResult, Citable, Fact, ProfileResult, Roofline

IMPL_NAMES = {
    "submission": "yours",
    "naive": "naive PyTorch",
    "torch": "PyTorch op",
    "compile": "torch.compile",
    "ceiling": "the GPU's ceiling",
}
GEOMEAN = "geometric mean"


def impl_name(impl: str) -> str:
    return IMPL_NAMES.get(impl, impl)


def shape_text(shape: list[int], dtype: str) -> str:
    return f"{'×'.join(str(n) for n in shape)} {dtype}" if shape else dtype


def size_text(nbytes: float) -> str:
    if nbytes >= 1e9:
        return f"{nbytes / 1e9:.2f} GB"
    if nbytes >= 1e6:
        return f"{nbytes / 1e6:.0f} MB" if nbytes >= 1e8 else f"{nbytes / 1e6:.1f} MB"
    return f"{nbytes / 1e3:.1f} kB"


def where(f: Fact) -> str:
    """'course-8192x4096-fp32, 8192×4096 float32'"""
    if f.shape_name == GEOMEAN:
        return "geometric mean over the benchmark shapes"
    return f"{f.shape_name}, {shape_text(f.shape, f.dtype)}"


def describe(f: Fact) -> str:
    """'241 MB (DRAM traffic (read + written), yours, course-8192x4096-fp32, 8192×4096
    float32, Nsight Compute)'"""
    who = impl_name(f.impl) + (f" vs {impl_name(f.versus)}" if f.versus else "")
    return f"{f.text} ({f.label}, {who}, {where(f)}, {f.source})"


def build(
    bench: BenchmarkResult | None, profiles: list[ProfileResult], gpu: str = ""
) -> Citable | None:
    """Every fact of this grading; None without a benchmark or a profile. The first profile
    (the checkpoint's first profile shape) is the shape a sentence naming none is read at."""
    ok = [p for p in profiles if p.totals and not p.error]
    if bench is None and not ok:
        return None
    if profiles:
        first = profiles[0]
        cite = Citable(gpu=gpu, shape_name=first.name, shape=first.shape, dtype=first.dtype)
    else:
        assert bench is not None
        s0 = bench.shapes[0] if bench.shapes else None
        cite = Citable(
            gpu=gpu,
            shape_name=s0.name if s0 else "",
            shape=s0.shape if s0 else [],
            dtype=s0.dtype if s0 else "",
        )
    if bench is not None:
        cite.gpu = cite.gpu or bench.gpu
    for p in ok:
        cite.facts += _profile_facts(p)
    if bench is not None:
        cite.facts += _bench_facts(bench)
    return cite


@dataclass(frozen=True)
class _At:
    shape_name: str
    shape: list[int]
    dtype: str
    source: str

    def fact(
        self,
        quantity: str,
        label: str,
        impl: str,
        value: float,
        text: str,
        versus: str | None = None,
    ) -> Fact:
        return Fact(
            quantity=quantity,
            label=label,
            impl=impl,
            versus=versus,
            shape_name=self.shape_name,
            shape=self.shape,
            dtype=self.dtype,
            value=value,
            text=text,
            source=self.source,
        )


def _profile_facts(p: ProfileResult) -> list[Fact]:
    out: list[Fact] = []
    at = _At(p.name, p.shape, p.dtype, "Nsight Compute")
    mine = p.totals.get("submission")
    for impl, t in p.totals.items():
        out.append(at.fact("kernels", "kernels launched", impl, t.kernels, f"{t.kernels}"))
        for label, nbytes in (
            ("DRAM bytes read", t.dram_read_bytes),
            ("DRAM bytes written", t.dram_write_bytes),
            ("DRAM traffic (read + written)", t.dram_bytes),
        ):
            if nbytes is not None:
                out.append(at.fact("traffic", label, impl, nbytes, size_text(nbytes)))
        for quantity, label, pct in (
            ("pct_of_peak", "DRAM throughput, % of peak", t.dram_pct_of_peak),
            ("occupancy", "achieved occupancy", t.occupancy_pct),
            ("l2_hit", "L2 hit rate", t.l2_hit_pct),
            ("tensor_pipe", "tensor pipe active, % of peak", t.tensor_pipe_pct),
            ("sm_throughput", "SM throughput, % of peak", t.sm_throughput_pct),
        ):
            if pct is not None:
                out.append(at.fact(quantity, label, impl, pct, f"{pct:.0f} %"))
        if t.duration_us:
            gbps = t.dram_bytes / (t.duration_us * 1e-6) / 1e9
            label = "DRAM bandwidth (traffic ÷ kernel time)"
            out.append(at.fact("bandwidth", label, impl, gbps, f"{gbps:.0f} GB/s"))
        us = t.duration_us
        out.append(at.fact("time", "kernel time (Nsight)", impl, us, f"{us:.1f} µs"))
        if mine is not None and impl != "submission" and mine.dram_bytes:
            ratio = t.dram_bytes / mine.dram_bytes
            label = "DRAM traffic ratio (theirs ÷ yours)"
            out.append(at.fact("traffic_ratio", label, "submission", ratio, f"{ratio:.2f}×", impl))
    return out


def _bench_facts(bench: BenchmarkResult) -> list[Fact]:
    out: list[Fact] = []
    for s in bench.shapes:
        at = _At(s.name, s.shape, s.dtype, "benchmark")
        for impl, us in s.times_us.items():
            out.append(
                at.fact("time", "time (median of the timed calls)", impl, us, f"{us:.1f} µs")
            )
            if us > 0:
                gbps = s.minimal_bytes / (us * 1e-6) / 1e9
                label = "effective bandwidth (minimal bytes ÷ time)"
                out.append(at.fact("bandwidth", label, impl, gbps, f"{gbps:.0f} GB/s"))
        if s.pct_of_peak is not None:
            label = "effective bandwidth, % of the measured peak"
            out.append(
                at.fact("pct_of_peak", label, "submission", s.pct_of_peak, f"{s.pct_of_peak:.0f} %")
            )
        for base, r in s.speedup.items():
            label = "speedup (their time ÷ yours)"
            out.append(at.fact("speedup", label, "submission", r.median, f"{r.median:.2f}×", base))
        if s.roofline is not None:
            out += _roofline_facts(at, s.roofline)
    geo = _At(GEOMEAN, [], "", "benchmark")
    for base, r in bench.geomean.items():
        label = "speedup (their time ÷ yours)"
        out.append(geo.fact("speedup", label, "submission", r.median, f"{r.median:.2f}×", base))
    return out


def _roofline_facts(at: _At, r: Roofline) -> list[Fact]:
    """A compute-bound shape's place on the roofline (grader/gpu/roofline.py): each
    implementation's TFLOP/s and share of the tensor-core ceiling, the intensity."""
    out = []
    for impl, tf in r.tflops.items():
        out.append(
            at.fact("tflops", "achieved TFLOP/s (FLOPs ÷ time)", impl, tf, f"{tf:.0f} TFLOP/s")
        )
        pct = 100 * tf / r.peak_tflops if r.peak_tflops else 0.0
        label = "TFLOP/s, % of the tensor-core ceiling"
        out.append(at.fact("pct_of_peak", label, impl, pct, f"{pct:.0f} %"))
    out.append(
        at.fact(
            "tflops",
            "tensor-core ceiling (cuBLAS, calibrated)",
            "ceiling",
            r.peak_tflops,
            f"{r.peak_tflops:.0f} TFLOP/s",
        )
    )
    label = "arithmetic intensity (FLOPs ÷ minimal bytes)"
    out.append(at.fact("intensity", label, "submission", r.intensity, f"{r.intensity:.0f} FLOP/B"))
    return out


# -- the tables the CLI report and the web page show ------------------------------------------

ROWS = [  # (quantity, label) in the order shown; ratios sit in their baseline's column
    ("kernels", "kernels launched"),
    ("traffic", "DRAM bytes read"),
    ("traffic", "DRAM bytes written"),
    ("traffic", "DRAM traffic (read + written)"),
    ("traffic_ratio", "DRAM traffic ratio (theirs ÷ yours)"),
    ("pct_of_peak", "DRAM throughput, % of peak"),
    ("bandwidth", "DRAM bandwidth (traffic ÷ kernel time)"),
    ("occupancy", "achieved occupancy"),
    ("l2_hit", "L2 hit rate"),
    ("time", "kernel time (Nsight)"),
    ("time", "time (median of the timed calls)"),
    ("bandwidth", "effective bandwidth (minimal bytes ÷ time)"),
    ("pct_of_peak", "effective bandwidth, % of the measured peak"),
    ("speedup", "speedup (their time ÷ yours)"),
    ("tensor_pipe", "tensor pipe active, % of peak"),
    ("sm_throughput", "SM throughput, % of peak"),
    ("tflops", "achieved TFLOP/s (FLOPs ÷ time)"),
    ("pct_of_peak", "TFLOP/s, % of the tensor-core ceiling"),
    ("tflops", "tensor-core ceiling (cuBLAS, calibrated)"),
    ("intensity", "arithmetic intensity (FLOPs ÷ minimal bytes)"),
]


@dataclass
class Table:
    title: str  # "course-8192x4096-fp32 · 8192×4096 float32"
    columns: list[str]  # implementation names, yours first
    rows: list[tuple[str, list[str]]] = field(default_factory=list)  # label, one cell a column
    note: str = ""


def tables(cite: Citable) -> list[Table]:
    """One table per shape (the course's first), implementations as columns; then the
    geometric-mean speedups."""
    by_shape: dict[str, list[Fact]] = {}
    for f in cite.facts:
        by_shape.setdefault(f.shape_name, []).append(f)
    order = sorted(by_shape, key=lambda n: (n != cite.shape_name, n == GEOMEAN))
    out = []
    for name in order:
        facts = by_shape[name]
        impls = list(dict.fromkeys(["submission", *(f.versus or f.impl for f in facts)]))
        first = facts[0]
        sources = sorted({f.source for f in facts})
        t = Table(
            title=where(first).replace(", ", " · ", 1),
            columns=[impl_name(i) for i in impls],
            note=" and ".join(sources),
        )
        for quantity, label in ROWS:
            row = [f for f in facts if f.quantity == quantity and f.label == label]
            if not row:
                continue
            cells = {f.versus or f.impl: f.text for f in row}
            t.rows.append((label, [cells.get(i, "—") for i in impls]))
        out.append(t)
    return out


def render_lines(cite: Citable) -> list[str]:
    """The CLI's 'What you can cite' block."""
    lines = [f"What you can cite (measured on {cite.gpu or 'this GPU'}):"]
    for t in tables(cite):
        lines.append(f"  {t.title} ({t.note}):")
        width = max(len(label) for label, _ in t.rows)
        cols = [max(len(c), *(len(r[1][i]) for r in t.rows)) for i, c in enumerate(t.columns)]
        head = "  ".join(c.rjust(w) for c, w in zip(t.columns, cols, strict=True))
        lines.append(f"    {'':<{width}}  {head}")
        for label, cells in t.rows:
            body = "  ".join(c.rjust(w) for c, w in zip(cells, cols, strict=True))
            lines.append(f"    {label:<{width}}  {body}")
    return lines

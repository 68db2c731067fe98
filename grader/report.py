"""Human-readable rendering of a GradeResult (the CLI's default output)."""

from __future__ import annotations

from grader.models import CaseResult, GradeResult, Verdict
from grader.text import untrusted


def _case_lines(cases: list[CaseResult]) -> list[str]:
    groups: dict[str, list[CaseResult]] = {}
    for c in cases:
        groups.setdefault(c.name, []).append(c)
    lines = []
    for name, runs in groups.items():
        ok = all(r.passed for r in runs)
        errs = [r.max_abs_err for r in runs if r.max_abs_err is not None]
        first = runs[0]
        shape = f" {tuple(first.shape)} {first.dtype}" if first.shape else ""
        worst = f"  max abs err {max(errs):.2e}" if errs else ""
        failed = sum(not r.passed for r in runs)
        tally = f"  ({failed} of {len(runs)} calls wrong)" if failed else f"  ({len(runs)} calls)"
        lines.append(f"  {'PASS' if ok else 'FAIL'}  {name}{shape}{worst}{tally}")
    return lines


def render(result: GradeResult) -> str:
    out = [
        f"kgrade · {result.checkpoint} · {result.device}",
        f"verdict: {result.verdict.value}   level: {result.level}",
        "",
    ]
    out += [line for m in result.messages for line in m.splitlines()]
    if result.cases:
        out += ["", "cases:", *_case_lines(result.cases)]
    if result.configs:
        good = sum(c.passed for c in result.configs)
        out += ["", f"autotune configs: {good} of {len(result.configs)} correct on every case"]
    if result.benchmark:
        out += ["", *_benchmark_lines(result)]
    if result.profile and result.profile.kernels:
        out += ["", f"Nsight Compute, {tuple(result.profile.shape)} {result.profile.dtype}:"]
        for k in result.profile.kernels:
            mb = (k.dram_read_bytes + k.dram_write_bytes) / 1e6
            out.append(
                f"  {k.impl:<10} {k.duration_us:8.1f} µs  {mb:8.1f} MB DRAM  "
                f"{k.dram_pct_of_peak or 0:5.1f} % peak  occ {k.occupancy_pct or 0:5.1f} %  "
                f"{k.name[:60]}"
            )
        if result.profile.configs:
            out.append(
                "  your call ran the configs your autotuner picked while timed: "
                + "; ".join(result.profile.configs)
            )
        if result.profile.baselines_measured not in (None, "now"):
            out.append(
                f"  (baselines profiled {result.profile.baselines_measured} on this GPU model and "
                "versions, without any submission; kept)"
            )
        if result.profile.report_file:
            out.append(f"  full report: {result.profile.report_file}")
    if result.explanation:
        out += ["", f"explanation: {'backed' if result.explanation.backed else 'not backed'}"]
        for n in result.explanation.numbers:
            if n.get("checked"):
                mark = "ok " if n.get("ok") else "OFF"
                out.append(f"  {mark} {n['quote']!r} vs {n['closest']}")
    if result.stdout.strip():
        out += ["", "your program's output (trimmed):"]
        out += ["  " + line for line in result.stdout.strip().splitlines()[-20:]]
    if result.stages:
        timing = ", ".join(f"{k} {v:.2f} s" for k, v in result.stages.items())
        out += ["", f"time: {timing}"]
    if result.sandbox and result.sandbox != "bubblewrap":
        out += [f"WARNING: sandbox: {result.sandbox}"]
    out += _limits_lines(result)
    if result.verdict is Verdict.INTERNAL_ERROR:
        out += ["", "This is the grader's fault, not yours."]
    # A result graded now was cleaned where the child's text entered (grader/text.py); one
    # stored earlier, or from another server (`kgrade status`), is made safe to print here.
    return untrusted("\n".join(out), lines=True)


def _benchmark_lines(result: GradeResult) -> list[str]:
    b = result.benchmark
    assert b is not None
    lines = [f"benchmark on {b.gpu} (peak {b.peak_gbps:.0f} GB/s, {b.peak_source}):"]
    for s in b.shapes:
        base = ", ".join(f"{n} {t:.1f}" for n, t in s.times_us.items() if n != "submission")
        speed = ", ".join(
            f"{n} {r.median:.2f}× [{r.low:.2f}, {r.high:.2f}]" for n, r in s.speedup.items()
        )
        lines.append(
            f"  {s.name} {tuple(s.shape)} {s.dtype}: yours {s.times_us['submission']:.1f} µs "
            f"({base} µs); speedup {speed}; {s.gbps:.0f} GB/s = {s.pct_of_peak:.0f} % of peak"
        )
    for n, r in b.geomean.items():
        lines.append(f"  geometric mean vs {n}: {r.median:.2f}× [{r.low:.2f}, {r.high:.2f}]")
    if b.unpaired_baselines:
        lines.append(
            f"  ({', '.join(b.unpaired_baselines)}: timed by the grader outside the sandbox, "
            "the same way but not interleaved with yours; cached per GPU and version)"
        )
    lines += [f"  FLAG: {f}" for f in b.flags]
    return lines


def _limits_lines(result: GradeResult) -> list[str]:
    """What counted the child's memory and capped its folders: a warning where it was less."""
    if not result.limits:
        return []
    weaker = "watchdog only" in result.limits or "not size-capped" in result.limits
    return [f"{'WARNING: ' if weaker else ''}limits: {result.limits}"]

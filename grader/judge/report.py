"""Human-readable rendering of a GradeResult (the CLI's default output)."""

from __future__ import annotations

from grader.judge import facts
from grader.judge.casegroups import group
from grader.models import CaseResult, GradeResult, ProfileResult, Verdict
from grader.text import untrusted


def _case_lines(cases: list[CaseResult]) -> list[str]:
    lines = []
    for g in group(cases):
        shape = (
            f" {g.shape_text} {g.dtype}" if g.shape else f" ({g.shape_text})" if g.hidden else ""
        )
        worst = f"  {g.error}" if g.nonfinite else f"  max abs err {g.error}" if g.error else ""
        mark = "PASS" if g.passed else " -  " if g.not_run == g.calls else "FAIL"
        lines.append(f"  {mark}  {g.name}{shape}{worst}{g.tally}")
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
        out += [
            f"  FAIL  {c.config}: wrong for widths {', '.join(map(str, c.failed_widths)) or '?'}"
            for c in result.configs
            if not c.passed
        ]
    if result.benchmark:
        out += ["", *_benchmark_lines(result)]
    for profile in [result.profile, *result.extra_profiles]:
        if profile and profile.kernels:
            out += ["", *_profile_lines(profile)]
    if result.citable and result.citable.facts:
        out += ["", *facts.render_lines(result.citable)]
    if result.explanation:
        out += ["", *_explanation_lines(result)]
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


def _profile_lines(profile: ProfileResult) -> list[str]:
    where = facts.shape_text(profile.shape, profile.dtype)
    out = [f"Nsight Compute, {profile.name + ' · ' if profile.name else ''}{where}:"]
    for k in profile.kernels:
        mb = (k.dram_read_bytes + k.dram_write_bytes) / 1e6
        l2 = f"  L2 hit {k.l2_hit_pct:5.1f} %" if k.l2_hit_pct is not None else ""
        out.append(
            f"  {k.impl:<10} {k.duration_us:8.1f} µs  {mb:8.1f} MB DRAM  "
            f"{k.dram_pct_of_peak or 0:5.1f} % peak  occ {k.occupancy_pct or 0:5.1f} %{l2}  "
            f"{k.name[:60]}"
        )
    if profile.configs:
        out.append(
            "  your call ran the configs your autotuner picked while timed: "
            + "; ".join(profile.configs)
        )
    if profile.baselines_measured not in (None, "now"):
        out.append(
            f"  (baselines profiled {profile.baselines_measured} on this GPU model and "
            "versions, without any submission; kept)"
        )
    if profile.report_file:
        out.append(f"  full report: {profile.report_file}")
    return out


def _explanation_lines(result: GradeResult) -> list[str]:
    """The reading shown back sentence by sentence (judge/recheck.reading_lines)."""
    from grader.judge.recheck import reading_lines

    assert result.explanation is not None
    return reading_lines(result.explanation)


def _benchmark_lines(result: GradeResult) -> list[str]:
    b = result.benchmark
    assert b is not None
    lines = [f"benchmark on {b.gpu} (peak {b.peak_gbps:.0f} GB/s, {b.peak_source}):"]
    if b.compute_source:
        lines.append(f"  tensor-core ceilings: {b.compute_source}")
    for s in b.shapes:
        base = ", ".join(f"{n} {t:.1f}" for n, t in s.times_us.items() if n != "submission")
        speed = ", ".join(
            f"{n} {r.median:.2f}× [{r.low:.2f}, {r.high:.2f}]" for n, r in s.speedup.items()
        )
        lines.append(
            f"  {s.name} {tuple(s.shape)} {s.dtype}: yours {s.times_us['submission']:.1f} µs "
            f"({base} µs); speedup {speed}; {s.gbps:.0f} GB/s = {s.pct_of_peak:.0f} % of peak"
        )
        if (roof := s.roofline) is not None:
            tflops = ", ".join(f"{n} {v:.0f}" for n, v in roof.tflops.items() if n != "submission")
            lines.append(
                f"    roofline: {roof.tflops.get('submission', 0):.0f} TFLOP/s ({tflops}), "
                f"{roof.pct_of_roof:.0f} % of the roof {roof.roof_tflops:.0f} TFLOP/s; intensity "
                f"{roof.intensity:.0f} FLOP/byte, {roof.bound}-bound (ridge {roof.ridge:.0f})"
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

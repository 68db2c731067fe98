"""Human-readable rendering of a GradeResult (the CLI's default output)."""

from __future__ import annotations

from grader.models import CaseResult, GradeResult, Verdict


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
    if result.stdout.strip():
        out += ["", "your program's output (trimmed):"]
        out += ["  " + line for line in result.stdout.strip().splitlines()[-20:]]
    if result.stages:
        timing = ", ".join(f"{k} {v:.2f} s" for k, v in result.stages.items())
        out += ["", f"time: {timing}"]
    if result.sandbox and result.sandbox != "bubblewrap":
        out += [f"WARNING: sandbox: {result.sandbox}"]
    if result.verdict is Verdict.INTERNAL_ERROR:
        out += ["", "This is the grader's fault, not yours."]
    return "\n".join(out)

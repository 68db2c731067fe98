"""Is the student's explanation backed by the measurements? Claim by claim.

It must address each point the checkpoint lists (`explanation_points`: for C3a the mechanism
— fusion, fewer DRAM round-trips —, that the op is memory-bound, and why not GEMM), and
every number it quotes is read with its unit, the quantity, the implementation and the shape
it speaks of (claims.py), then compared with the measurement of that same quantity, for that
implementation, at that shape and dtype — one of the grading's citable facts (facts.py). A
claim within the checkpoint's tolerance (15 % unless it says otherwise, per quantity) passes;
one that matches nothing of its quantity and subject fails, and its message shows what was
measured. It must cite at least one checked number of each kind the checkpoint requires
(`required_claims`: the DRAM traffic and the speed). Every claim must pass.
"""

from __future__ import annotations

from typing import Any

from grader.judge import claims, facts
from grader.judge.claims import Claim
from grader.models import Citable, ExplanationCheck, Fact, RubricSpec

# a claim's quantity -> the facts it may be compared with
QUANTITIES: dict[str, tuple[str, ...]] = {
    "traffic": ("traffic",),
    "traffic_ratio": ("traffic_ratio",),
    "bandwidth": ("bandwidth",),
    "time": ("time",),
    "speedup": ("speedup",),
    "ratio": ("speedup", "traffic_ratio"),
    "pct_of_peak": ("pct_of_peak",),
    "occupancy": ("occupancy",),
    "l2_hit": ("l2_hit",),
    "percent": ("pct_of_peak", "occupancy", "l2_hit", "tensor_pipe", "sm_throughput"),
    "kernels": ("kernels",),
    # compute-bound checkpoints (grader/gpu/roofline.py; the compute metrics of gpu/nsight.py)
    "tflops": ("tflops",),
    "intensity": ("intensity",),
    "tensor_pipe": ("tensor_pipe",),
    "sm_throughput": ("sm_throughput",),
}
NAMES = {
    "traffic": "DRAM traffic",
    "traffic_ratio": "DRAM traffic ratio",
    "bandwidth": "bandwidth",
    "time": "time",
    "speedup": "speedup",
    "ratio": "ratio",
    "pct_of_peak": "% of peak",
    "occupancy": "occupancy",
    "l2_hit": "L2 hit rate",
    "percent": "percentage",
    "kernels": "kernel count",
    "tflops": "TFLOP/s",
    "intensity": "arithmetic intensity",
    "tensor_pipe": "tensor pipe utilisation",
    "sm_throughput": "SM throughput",
}
# a traffic claim's direction (claims.Claim.direction) -> the fact it is compared with
TRAFFIC_LABELS = {
    None: "DRAM traffic (read + written)",
    "read": "DRAM bytes read",
    "write": "DRAM bytes written",
}
# what each requirement accepts: a checked, passing claim compared with one of these facts
REQUIRED: dict[str, tuple[tuple[str, ...], str]] = {
    "traffic": (
        ("traffic", "traffic_ratio"),
        "the DRAM traffic (bytes moved, or a traffic ratio against the naive or torch version)",
    ),
    "speed": (("speedup", "time"), "the speed (a speedup or a time)"),
    "compute": (("tflops",), "the compute throughput (a TFLOP/s figure: yours or the baseline's)"),
    "utilisation": (
        ("tensor_pipe", "sm_throughput"),
        "the tensor pipe's or the SMs' utilisation (Nsight Compute)",
    ),
}


def _subject(c: Claim) -> str:
    return c.subject or "submission"


def _where(c: Claim, cite: Citable) -> str:
    if c.geomean and c.quantity in ("speedup", "ratio"):
        return "the geometric mean over the benchmark shapes"
    if c.shape_name:
        return c.shape_name
    if c.dim_hint is not None and not c.dims:
        return f"a shape with a dimension of {c.dim_hint}"
    dims = c.dims or cite.shape
    dtype = c.dtype or (cite.dtype if not c.dims or c.dims == cite.shape else "")
    return facts.shape_text(dims, dtype) + ("" if c.dims or c.dtype else " (the course's shape)")


def _at_shape(c: Claim, cite: Citable, pool: list[Fact]) -> list[Fact]:
    """The facts at the shape and dtype the claim names; none named: the course's shape (and,
    for a speedup, also the geometric mean)."""
    if c.geomean and c.quantity in ("speedup", "ratio"):
        return [f for f in pool if f.shape_name == facts.GEOMEAN]
    shaped = [f for f in pool if f.shape_name != facts.GEOMEAN]
    if c.shape_name:  # a case named: its facts only
        return [f for f in shaped if f.shape_name.lower() == c.shape_name]
    if c.dim_hint is not None and not c.dims:  # "K = 1000": the shapes with that dimension
        hinted = [f for f in shaped if c.dim_hint in f.shape]
        if any(c.dim_hint in f.shape for f in cite.facts):
            return [f for f in hinted if c.dtype is None or f.dtype == c.dtype]
    if not c.dims and not c.dtype:
        here = [f for f in shaped if f.shape_name == cite.shape_name]
        if c.quantity in ("speedup", "ratio"):
            here += [f for f in pool if f.shape_name == facts.GEOMEAN]
        return here
    dims = c.dims
    dtype = c.dtype
    if dims is not None and dtype is None and dims == cite.shape:
        dtype = cite.dtype
    if dims is None and any(f.shape == cite.shape and f.dtype == dtype for f in shaped):
        dims = cite.shape
    return [
        f
        for f in shaped
        if (dims is None or f.shape == dims) and (dtype is None or f.dtype == dtype)
    ]


def _candidates(c: Claim, cite: Citable) -> list[Fact]:
    kinds = QUANTITIES[c.quantity]
    pool = [f for f in cite.facts if f.quantity in kinds]
    if c.quantity in ("speedup", "traffic_ratio", "ratio"):
        pool = [f for f in pool if c.versus is None or f.versus == c.versus]
    else:
        pool = [f for f in pool if f.impl == _subject(c)]
    if c.quantity == "traffic":
        pool = [f for f in pool if f.label == TRAFFIC_LABELS[c.direction]]
    return _at_shape(c, cite, pool)


def _claimed(c: Claim, f: Fact) -> float:
    """The claim's value in the fact's terms: '76 % less traffic' is a ratio of 1/(1-0.76),
    '58 % faster' one of 1.58, '0.24× the traffic' one of 1/0.24."""
    v = c.value
    if c.inverse and v > 0:
        return 1 / v
    if c.percent_form == "less" and v < 100:
        return 1 / (1 - v / 100)
    if c.percent_form == "more":
        return 1 + v / 100
    if f.quantity in ("speedup", "traffic_ratio") and 0 < v < 1 <= f.value:
        return 1 / v
    return v


def _rel(c: Claim, f: Fact) -> float:
    return abs(_claimed(c, f) - f.value) / max(abs(f.value), 1e-9)


def _who(c: Claim) -> str:
    if c.quantity in ("speedup", "traffic_ratio", "ratio"):
        base = facts.impl_name(c.versus) if c.versus else "any baseline (none named)"
        return f"yours vs {base}"
    return facts.impl_name(_subject(c)) + ("" if c.subject else " (no implementation named)")


def check_claim(c: Claim, cite: Citable | None, rubric: RubricSpec) -> dict[str, Any]:
    """One claim against the facts: a record for ExplanationCheck.numbers, with 'message'
    set when it fails."""
    record: dict[str, Any] = {
        "quote": c.quote,
        "sentence": c.sentence,
        "quantity": c.quantity,
        "kind": c.quantity,
        "subject": _subject(c),
        "versus": c.versus,
        "negated": c.negated,
        "checked": False,
        "ok": False,
    }
    said = f"'{'not ' if c.negated else ''}{c.quote}'"
    what = f"{NAMES[c.quantity]}, {_who(c)}"
    if cite is None:
        record["message"] = f"You wrote {said} ({what}); nothing was measured to check it against."
        return record
    where = _where(c, cite)
    record["shape"] = where
    what = f"{what}, {where}"
    found = _candidates(c, cite)
    if not found:
        known = sorted({f.shape_name for f in cite.facts if f.quantity in QUANTITIES[c.quantity]})
        record["message"] = (
            f"You wrote {said} ({what}): kgrade measured no {NAMES[c.quantity]} of that "
            f"implementation at that shape (it has one at: {', '.join(known) or 'none'}). "
            "Name the shape and the implementation the number is for."
        )
        return record
    best = min(found, key=lambda f: _rel(c, f))
    rel = _rel(c, best)
    tol = rubric.tolerance(best.quantity)
    within = rel <= tol
    ok = not within if c.negated else within
    record.update(
        checked=True,
        ok=ok,
        measured=facts.describe(best),
        closest=facts.describe(best),
        fact=best.quantity,
        fact_impl=best.impl,
        rel_error=round(rel, 3),
    )
    if not ok:
        if c.negated:
            record["message"] = (
                f"You wrote {said} ({what}), but it was measured: {facts.describe(best)}."
            )
        else:
            others = "; ".join(facts.describe(f) for f in found if f is not best)[:400]
            also = f" Also measured: {others}." if others else ""
            record["message"] = (
                f"You wrote {said} ({what}); measured: {facts.describe(best)} — off by "
                f"{rel:.0%}, more than {tol:.0%}.{also}"
            )
    return record


def check(text: str, rubric: RubricSpec, cite: Citable | None) -> ExplanationCheck:
    lowered = text.lower()
    result = ExplanationCheck(backed=True)
    for point, words in rubric.explanation_points.items():
        ok = any(w in lowered for w in words)
        result.points[point] = ok
        if not ok:
            result.backed = False
            result.messages.append(
                f"Your explanation does not address '{point.replace('_', ' ')}' "
                f"(e.g. mention {', '.join(words[:3])})."
            )
    names = {f.shape_name for f in cite.facts if f.shape_name != facts.GEOMEAN} if cite else set()
    for c in claims.read(text, names):
        record = check_claim(c, cite, rubric)
        result.numbers.append(record)
        if not record["ok"]:
            result.backed = False
            result.messages.append(record["message"])
    passed = {
        n["fact"]
        for n in result.numbers
        if n["ok"] and n["checked"] and not n["negated"] and n.get("fact_impl") != "ceiling"
    }  # the GPU's ceiling is no implementation's achieved figure
    for need in rubric.required_claims:
        kinds, name = REQUIRED.get(need, ((need,), need))
        if not passed & set(kinds):
            result.backed = False
            example = _example(need, cite)
            result.messages.append(
                f"Your explanation cites no checked number for {name}: quote one from "
                f"'What you can cite'{f', e.g. {example}' if example else ''}."
            )
    return result


def _example(need: str, cite: Citable | None) -> str:
    if cite is None:
        return ""
    at = [f for f in cite.facts if f.shape_name == cite.shape_name]
    if need == "traffic":
        total = {
            f.impl: f.text
            for f in at
            if f.quantity == "traffic" and f.label.startswith("DRAM traffic")
        }
        if "submission" in total and "naive" in total:
            return f"'my kernel moves {total['submission']}, the naive version {total['naive']}'"
    if need == "speed":
        sp = next((f for f in at if f.quantity == "speedup" and f.versus == "torch"), None)
        if sp is not None:
            return f"'my kernel is {sp.text} faster than torch at {facts.where(sp)}'"
    return ""

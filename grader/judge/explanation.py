"""Is the student's explanation backed by the measurements? Claim by claim.

The claims (claims.py: the prose read sentence by sentence in English, Spanish or Korean, and
the ```claims block, claimblock.py) are each compared with the measurement of that quantity,
for that implementation, at that shape and dtype — one of the grading's citable facts
(facts.py), or, for a ratio between two baselines, the ratio of their facts. A claim holds
within the checkpoint's tolerance (15 % unless it says otherwise, per quantity) by its
relation: '=' and '≈' near the measurement, '≥' and '≤' as bounds, a range with both ends,
'≠' away from it, a comparison with no number ('faster than torch') by its sign. A claim that
fails says what was measured; one that could not be read ("not read — say whose it is")
blocks level 3 until the student says it.

Level 3 needs, besides every claim holding and every point met (points.py), at least one
figure of the student's own kernel of each kind the checkpoint requires (`required_claims`:
its traffic or traffic ratio, and its speedup or time): a baseline's figures never do, and nor
do bounds or comparisons without a number.
"""

from __future__ import annotations

import operator
from typing import Any

from grader.judge import claimblock, claims, facts, numbers, points
from grader.judge.claims import Claim
from grader.judge.lang import language_of
from grader.judge.qualitative import PER_IMPL
from grader.judge.rendered import prose_only, split_block, visible
from grader.judge.sources import named_source
from grader.models import Citable, ExplanationCheck, Fact, RubricSpec

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
    "tflops": ("tflops",),
    "intensity": ("intensity",),
    "tensor_pipe": ("tensor_pipe",),
    "sm_throughput": ("sm_throughput",),
    "unit": (),
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
    "unit": "a figure in a unit kgrade does not read",
}
TRAFFIC_LABELS = {
    None: "DRAM traffic (read + written)",
    "read": "DRAM bytes read",
    "write": "DRAM bytes written",
}
REQUIRED: dict[str, tuple[tuple[str, ...], str]] = {
    "traffic": (
        ("traffic", "traffic_ratio"),
        "your kernel's DRAM traffic (its bytes moved, or its traffic ratio against the naive "
        "or torch version)",
    ),
    "speed": (("speedup", "time"), "your kernel's speed (its speedup or its time)"),
    "compute": (("tflops",), "your kernel's compute throughput (its TFLOP/s)"),
    "utilisation": (
        ("tensor_pipe", "sm_throughput"),
        "the tensor pipe's or the SMs' utilisation in your kernel (Nsight Compute)",
    ),
}
RELATIONS = {
    "=": "",
    "≈": "about ",
    ">=": "at least ",
    "<=": "at most ",
    ">": "more than ",
    "<": "less than ",
    "!=": "not ",
    "range": "",
}
_BENCH_TIME = "time (median of the timed calls)"


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
    """The facts at the shape and dtype the claim names; none named: the course's shape (the
    geometric mean only where the claim's own clause names it)."""
    if c.geomean and c.quantity in ("speedup", "ratio"):
        return [f for f in pool if f.shape_name == facts.GEOMEAN]
    shaped = [f for f in pool if f.shape_name != facts.GEOMEAN]
    if c.shape_name:
        return [f for f in shaped if f.shape_name.lower() == c.shape_name]
    if c.dim_hint is not None and not c.dims:
        hinted = [f for f in shaped if c.dim_hint in f.shape]
        if any(c.dim_hint in f.shape for f in cite.facts):
            return [f for f in hinted if c.dtype is None or f.dtype == c.dtype]
    if not c.dims and not c.dtype:
        return [f for f in shaped if f.shape_name == cite.shape_name]
    dims, dtype = c.dims, c.dtype
    if dims is not None and dtype is None and dims == cite.shape:
        dtype = cite.dtype
    if dims is None and any(f.shape == cite.shape and f.dtype == dtype for f in shaped):
        dims = cite.shape
    return [
        f
        for f in shaped
        if (dims is None or f.shape == dims) and (dtype is None or f.dtype == dtype)
    ]


def _pair_facts(c: Claim, cite: Citable) -> list[Fact]:
    """A ratio between two baselines ("torch is 3.2× faster than the naive version"): from
    their times (bytes), theirs over the subject's."""
    quantity, label = (
        ("time", _BENCH_TIME) if c.quantity == "speedup" else ("traffic", TRAFFIC_LABELS[None])
    )
    mine = {
        f.shape_name: f
        for f in cite.facts
        if f.quantity == quantity and f.label == label and f.impl == c.subject
    }
    out = []
    for f in cite.facts:
        if (
            f.quantity == quantity
            and f.label == label
            and f.impl == c.versus
            and f.shape_name in mine
        ):
            a = mine[f.shape_name]
            if a.value > 0:
                r = f.value / a.value
                out.append(
                    f.model_copy(
                        update={
                            "quantity": c.quantity,
                            "impl": a.impl,
                            "versus": f.impl,
                            "value": r,
                            "text": f"{r:.2f}×",
                            "label": f"{'time' if quantity == 'time' else 'DRAM traffic'}"
                            f" ratio ({facts.impl_name(f.impl)} ÷ {facts.impl_name(a.impl)})",
                        }
                    )
                )
    return out


def _candidates(c: Claim, cite: Citable, by_source: bool = True) -> list[Fact]:
    kinds = QUANTITIES[c.quantity]
    if c.quantity in ("speedup", "traffic_ratio") and _subject(c) != "submission":
        return _at_shape(c, cite, _pair_facts(c, cite))
    pool = [f for f in cite.facts if f.quantity in kinds]
    if c.quantity in ("speedup", "traffic_ratio", "ratio"):
        pool = [f for f in pool if c.versus is None or f.versus == c.versus]
    else:
        pool = [f for f in pool if f.impl == _subject(c)]
    if c.quantity == "traffic":
        pool = [f for f in pool if f.label == TRAFFIC_LABELS[c.direction]]
    source = named_source(c) if c.quantity in ("time", "pct_of_peak") and by_source else None
    if source and any(f.source == source for f in pool):
        pool = [f for f in pool if f.source == source]
    return _at_shape(c, cite, pool)


# A percentage (of peak, occupancy, L2 hits) holds within this many points, not within a
# relative tolerance: 15 % of 92 % occupancy would let "100 %" pass (pass 4), where "about 90 %"
# is honest rounding.
PCT_POINTS = 5.0
PERCENTS = frozenset({"pct_of_peak", "occupancy", "l2_hit", "tensor_pipe", "sm_throughput"})


def _holds(c: Claim, m: float, tol: float, points: bool = False) -> bool:
    v = c.value

    def lo(x: float) -> float:
        return x - PCT_POINTS if points else x * (1 - tol)

    def hi(x: float) -> float:
        return x + PCT_POINTS if points else x * (1 + tol)

    if c.relation == "range" and c.high is not None:
        return lo(v) <= m <= hi(c.high)
    near = abs(v - m) <= (PCT_POINTS if points else tol * max(abs(m), 1e-9))
    return {
        "=": near,
        "≈": near,
        "!=": not near,
        ">=": m >= lo(v),
        "<=": m <= hi(v),
        ">": m > v,
        "<": m < v,
    }[c.relation]


def _rel(c: Claim, f: Fact) -> float:
    return abs(c.value - f.value) / max(abs(f.value), 1e-9)


def _who(c: Claim) -> str:
    if c.quantity in ("speedup", "traffic_ratio", "ratio"):
        base = facts.impl_name(c.versus) if c.versus else "no baseline named"
        return f"{facts.impl_name(_subject(c))} vs {base}"
    return facts.impl_name(_subject(c))


def said(c: Claim) -> str:
    if c.qualitative:
        return f"'{c.quote}'"
    return f"'{RELATIONS.get(c.relation, '') if c.relation not in ('=', 'range') else ''}{c.quote}'"


def record_of(c: Claim) -> dict[str, Any]:
    return {
        "quote": c.quote,
        "sentence": c.sentence,
        "quantity": c.quantity,
        "kind": c.quantity,
        "subject": c.subject,
        "versus": c.versus,
        "negated": c.negated,
        "relation": c.relation,
        "value": c.value,
        "high": c.high,
        "direction": c.direction,
        "source": c.source,
        "index": c.index,
        "how": c.how,
        "qualitative": c.qualitative,
        "unread": c.unread,
        "dims": c.dims,
        "dtype": c.dtype,
        "shape_name": c.shape_name,
        "dim_hint": c.dim_hint,
        "geomean": c.geomean,
        "checked": False,
        "ok": False,
    }


def check_claim(c: Claim, cite: Citable | None, rubric: RubricSpec) -> dict[str, Any]:
    """One claim against the facts: a record for ExplanationCheck.numbers, with 'message'
    set when it fails."""
    record = record_of(c)
    where_said = {
        "prose": f"sentence {c.index}",
        "code": f"sentence {c.index}, a line of a code block",
    }.get(c.source, f"claims block line {c.index}")
    if c.unread:
        record["message"] = (
            f"Not read — {c.unread}: {said(c)} ({where_said}).{_unread_hint(c, cite)} "
            "Say it in the sentence, or add a claims block line (docs/EXPLANATIONS.md)."
        )
        return record
    what = f"{NAMES[c.quantity]}, {_who(c)}"
    if cite is None:
        record["message"] = (
            f"You wrote {said(c)} ({what}); nothing was measured to check it against."
        )
        return record
    where = _where(c, cite)
    record["shape"] = where
    what = f"{what}, {where}"
    if c.qualitative and c.versus is not None and c.quantity in PER_IMPL:
        return _compared(c, cite, record, what, where_said)
    if not any(f.quantity in QUANTITIES[c.quantity] for f in cite.facts):
        # a quantity this grading measures nowhere ("about one FLOP per byte" on a
        # memory-bound checkpoint): shown, neither checked nor counted
        record.update(ok=True, note=f"kgrade measures no {NAMES[c.quantity]} here: not checked")
        return record
    found = _candidates(c, cite)
    if not found:
        known = sorted({f.shape_name for f in cite.facts if f.quantity in QUANTITIES[c.quantity]})
        record["message"] = (
            f"You wrote {said(c)} ({what}, {where_said}): kgrade measured no {NAMES[c.quantity]} "
            f"of that implementation at that shape (it has one at: {', '.join(known) or 'none'}). "
            "Name the shape and the implementation the number is for."
        )
        return record
    tol = rubric.tolerance(found[0].quantity)
    # the checkpoint's own tolerance for a percentage stays relative, as it wrote it
    points = found[0].quantity in PERCENTS and found[0].quantity not in rubric.claim_tolerances
    passing = [f for f in found if _holds(c, f.value, tol, points)]
    best = min(passing or found, key=lambda f: _rel(c, f))
    ok = bool(passing)
    record.update(
        checked=True,
        ok=ok,
        measured=facts.describe(best),
        closest=facts.describe(best),
        fact=best.quantity,
        fact_impl=best.impl,
        fact_label=best.label,
        rel_error=round(_rel(c, best), 3),
    )
    if not ok:
        others = "; ".join(facts.describe(f) for f in found if f is not best)[:400]
        also = f" Also measured: {others}." if others else ""
        unnamed = [f for f in _candidates(c, cite, by_source=False) if f not in found]
        if unnamed:  # the time of the source the student did not name: shown, not checked
            also += (
                f" You named the {best.source} time; the other one (not checked): "
                + "; ".join(facts.describe(f) for f in unnamed)[:300]
                + "."
            )
        off = (
            f" — off by {abs(c.value - best.value):.0f} points, more than {PCT_POINTS:.0f}"
            if points and c.relation in ("=", "≈")
            else f" — off by {_rel(c, best):.0%}, more than {tol:.0%}"
            if c.relation in ("=", "≈")
            else ""
        )
        but = ", but it was measured:" if c.relation == "!=" else "; measured:"
        record["message"] = (
            f"You wrote {said(c)} ({what}, {where_said}){but} {facts.describe(best)}{off}.{also}"
        )
    return record


def _compared(
    c: Claim, cite: Citable, record: dict[str, Any], what: str, where_said: str
) -> dict[str, Any]:
    """'fewer kernels than torch', 'a higher occupancy than torch': the two implementations'
    measured values at the claim's shape, by the same source, compared as the claim says."""

    def of(impl: str | None) -> list[Fact]:
        return _at_shape(
            c, cite, [f for f in cite.facts if f.quantity == c.quantity and f.impl == impl]
        )

    pairs = [(a, b) for a in of(_subject(c)) for b in of(c.versus) if a.source == b.source]
    if not pairs:
        record.update(
            ok=True, note=f"kgrade measured no {NAMES[c.quantity]} of both here: not checked"
        )
        return record
    rel = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}[c.relation]
    holding = [(a, b) for a, b in pairs if rel(a.value, b.value)]
    a, b = (holding or pairs)[0]
    shown = f"{facts.describe(a)} against {facts.describe(b)}"
    record.update(checked=True, ok=bool(holding), measured=shown, closest=shown, fact=a.quantity)
    if not holding:
        record["message"] = f"You wrote {said(c)} ({what}, {where_said}); measured: {shown}."
    return record


def _unread_hint(c: Claim, cite: Citable | None) -> str:
    if cite is None:
        return ""
    at = [f for f in cite.facts if f.shape_name == cite.shape_name]
    if c.quantity == "percent":
        fs = [
            f
            for f in at
            if f.quantity in QUANTITIES["percent"] and f.impl == (c.subject or "submission")
        ]
    elif c.quantity in ("ratio", "speedup", "traffic_ratio"):
        fs = [f for f in at if f.quantity in ("speedup", "traffic_ratio")]
    else:
        fs = [
            f
            for f in at
            if f.quantity == c.quantity
            and (c.quantity != "traffic" or f.label == TRAFFIC_LABELS[c.direction])
        ]
    if not fs:
        return ""
    return (
        " Measured: "
        + "; ".join(
            f"{f.text} ({f.label}, {facts.impl_name(f.impl)}"
            f"{' vs ' + facts.impl_name(f.versus) if f.versus else ''})"
            for f in fs[:8]
        )
        + "."
    )


def _confirmed(c: Claim, block: list[Claim]) -> Claim | None:
    """A block line with the same figure as a prose claim: the block says what it is, unless
    the sentence names another implementation as the figure's (pass 6: "My kernel takes only
    110 µs" beside the line `time, torch: 110 us` was backed): then the sentence is checked
    as it reads."""
    for b in block:
        named = c.subject is not None and c.unread is None and c.how != "no subject named"
        if named and b.subject is not None and c.subject != b.subject:
            continue
        if (
            c.value
            and abs(b.value - c.value) <= 0.005 * abs(c.value)
            and (
                QUANTITIES.get(b.quantity, ()) == QUANTITIES.get(c.quantity, ())
                or c.unread is not None
            )
        ):
            return b
    return None


def check(text: str, rubric: RubricSpec, cite: Citable | None) -> ExplanationCheck:
    names = {f.shape_name for f in cite.facts if f.shape_name != facts.GEOMEAN} if cite else set()
    read, block_text = claims.reading(text, names)
    result = ExplanationCheck(backed=True)
    if len(prose_only(visible(split_block(text)[0]))) > claims.MAX_TEXT:
        result.messages.append(
            f"Your explanation is longer than {claims.MAX_TEXT // 1024} KiB of text: only its "
            "beginning is read. Keep it to the point."
        )
    if sum(len(s.claims) for s in read) >= claims.MAX_CLAIMS:
        result.messages.append(
            f"kgrade reads at most {claims.MAX_CLAIMS} claims of an explanation: quote the "
            "figures that make your point."
        )
    block: list[Claim] = []
    if block_text is not None:
        prose = prose_only(visible(split_block(text)[0]))
        mark = numbers.decimal_mark(prose + "\n" + block_text, language_of(prose))
        lowered = sorted({n.lower() for n in names}, key=len, reverse=True)
        block, errors = claimblock.parse(block_text, lowered, mark)
        result.messages += errors
        result.block = [{"line": e, "error": True} for e in errors]
    for s in read:
        ids = []
        for c in s.claims:
            confirmed = _confirmed(c, block)
            record = record_of(c) if confirmed else check_claim(c, cite, rubric)
            if confirmed is not None:
                record.update(ok=True, confirmed_by=confirmed.index, checked=False)
            ids.append(len(result.numbers))
            result.numbers.append(record)
            if not record["ok"]:
                result.messages.append(record["message"])
        result.sentences.append({"index": s.index, "text": s.text, "claims": ids})
    for c in block:
        record = check_claim(c, cite, rubric)
        result.block.append({"line": c.quote, "claim": len(result.numbers)})
        result.numbers.append(record)
        if not record["ok"]:
            result.messages.append(record["message"])
    _points(result, [s.text if s.source == "prose" else "" for s in read], rubric, cite)
    _required(result, rubric, cite)
    result.backed = not result.messages
    return result


def _points(
    result: ExplanationCheck, sentences: list[str], rubric: RubricSpec, cite: Citable | None
) -> None:
    for point, pc in points.check(sentences, rubric.explanation_points, cite).items():
        result.points[point] = pc.ok
        if pc.sentence:
            result.point_sentences[point] = pc.sentence
        if not pc.ok:
            result.messages.append(pc.message)


def counts(n: dict[str, Any]) -> bool:
    """A checked figure of the submission's own: it may satisfy a required claim."""
    narrow = n.get("relation") != "range" or (
        n.get("high") is not None and n["high"] <= n["value"] * 1.3
    )
    return bool(
        n["ok"]
        and n["checked"]
        and not n["negated"]
        and not n.get("qualitative")
        and n.get("relation") in ("=", "≈", "range")
        and narrow
        and n.get("fact_impl") == "submission"
    )


def _required(result: ExplanationCheck, rubric: RubricSpec, cite: Citable | None) -> None:
    passed = {n["fact"] for n in result.numbers if counts(n)}
    for need in rubric.required_claims:
        kinds, name = REQUIRED.get(need, ((need,), need))
        if not passed & set(kinds):
            example = _example(need, cite)
            result.messages.append(
                f"Your explanation cites no checked figure of {name}; a baseline's figures, "
                f"bounds and comparisons without a number do not count. Quote one from 'What "
                f"you can cite'{f', e.g. {example}' if example else ''}."
            )


def _example(need: str, cite: Citable | None) -> str:
    if cite is None:
        return ""
    at = [f for f in cite.facts if f.shape_name == cite.shape_name]
    if need == "traffic":
        total = {
            f.impl: f.text
            for f in at
            if f.quantity == "traffic" and f.label == TRAFFIC_LABELS[None]
        }
        if "submission" in total:
            naive = f", the naive version {total['naive']}" if "naive" in total else ""
            return f"'my kernel moves {total['submission']}{naive}' (measured)"
    if need == "speed":
        sp = next((f for f in at if f.quantity == "speedup" and f.versus == "torch"), None)
        if sp is not None:
            return f"'my kernel is {sp.text} faster than torch at {facts.where(sp)}' (measured)"
        t = next((f for f in at if f.quantity == "time" and f.impl == "submission"), None)
        if t is not None:
            return f"'my kernel takes {t.text}' (measured)"
    if need == "compute":
        tf = next((f for f in at if f.quantity == "tflops" and f.impl == "submission"), None)
        if tf is not None:
            return f"'my kernel reaches {tf.text}' (measured)"
    return ""

"""Re-check an explanation against a stored grading, without a GPU: the one function behind
`kgrade explain RESULT.json EXPLANATION.md` and the result page's re-check.

The stored grading keeps its measurements (`citable`) and the reasons against level 3 that
are not the explanation's (`level3_blockers`; for a grading stored before they were kept,
rebuilt from its verdict, benchmark and profile). The explanation is read and checked again
(explanation.check) and the level it would give is said (rubric.level); nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.judge import claimblock, explanation, rubric
from grader.judge.rendered import split_block
from grader.models import ExplanationCheck, GradeResult, RubricSpec, Verdict


@dataclass
class Recheck:
    check: ExplanationCheck
    level: int  # the level this explanation would give this grading
    stored_level: int
    reasons: list[str] = field(default_factory=list)  # against level 3, the explanation's last

    def as_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "stored_level": self.stored_level,
            "reasons": self.reasons,
            "explanation": self.check.model_dump(mode="json"),
        }


def editable(text: str | None, check: dict[str, Any]) -> str | None:
    """The explanation to re-check, with its reading as a claims block to correct (unless it
    has a block of its own already); None without an explanation or a check."""
    if text is None or not check:
        return None
    if split_block(text)[1] is not None:
        return text
    block = claimblock.block_of(check.get("numbers") or [])
    return text.rstrip() + ("\n\n" + block + "\n" if block else "\n")


def other_reasons(result: GradeResult, spec: RubricSpec) -> list[str] | None:
    """The reasons against level 3 that are not the explanation's; None: no GPU stage."""
    if result.level3_blockers is not None:
        return list(result.level3_blockers)
    if result.verdict is not Verdict.CORRECT or result.benchmark is None:
        return None
    bench = result.benchmark
    out = list(bench.flags)
    if spec.level3 == "win":
        gm = bench.geomean.get(spec.baseline)
        if gm is None:
            out.append(f"No speedup over the '{spec.baseline}' baseline was measured.")
        elif gm.low <= spec.min_speedup_lower_bound:
            out.append(rubric.not_shown(spec, gm, len(bench.shapes)))
    if result.profile is None or result.citable is None:
        out.append("No Nsight Compute evidence in this grading: level 3 needs its evidence.")
    return out


def recheck(result: GradeResult, text: str, spec: RubricSpec) -> Recheck:
    check = explanation.check(text, spec, result.citable)
    others = other_reasons(result, spec)
    reasons = None if others is None else others + list(check.messages)
    trial = result.model_copy(update={"explanation": check})
    level = rubric.level(trial, reasons)
    return Recheck(check, level, result.level, reasons or [])


REFUSED = "An instructor refused the explanation."


def decided(result: GradeResult, spec: RubricSpec, accepted: bool) -> tuple[int, list[str]] | None:
    """The level an instructor's word on the explanation gives this grading, apart from the
    kernel: accepted, the explanation's own check no longer stands against level 3 (whatever
    else does still does); refused, level 3 is not earned. With the reasons against level 3
    that remain. None: no GPU stage, so there is nothing the word could decide."""
    others = other_reasons(result, spec)
    if others is None:
        return None
    reasons = others if accepted else [*others, REFUSED]
    return rubric.level(result, reasons), reasons


_MARK = {True: "ok ", False: "OFF"}


def claim_line(n: dict[str, Any]) -> str:
    """One claim as read and checked: '  ok  '244 MB' (traffic, submission) vs 244 MB (…)'."""
    if n.get("unread"):
        return f"?? {n['quote']!r} not read — {n['unread']}"
    if n.get("confirmed_by"):
        return f"ok  {n['quote']!r} as the claims block's line {n['confirmed_by']} says"
    if n.get("note"):
        return f"--  {n['quote']!r} ({n.get('kind', '')}): {n['note']}"
    mark = _MARK[bool(n.get("ok"))] if n.get("checked") else "?? "
    rel = explanation.RELATIONS.get(n.get("relation") or "=", "")
    said = n["quote"] if n.get("qualitative") else f"{rel if rel != 'not ' else ''}{n['quote']}"
    said = f"{'not ' if n.get('negated') else ''}{said}"
    who = n.get("subject") or ""
    if n.get("versus"):
        who += f" vs {n['versus']}"
    what = n.get("measured") or n.get("closest") or n.get("message") or "nothing measured"
    return f"{mark} {said!r} ({n.get('kind', '')}, {who}) vs {what}"


def reading_lines(e: ExplanationCheck) -> list[str]:
    """The reading shown back, sentence by sentence: each claim with its quantity, whose it
    is, where, and the check; the claims block; which sentence met each point."""
    out = [f"explanation: {'backed' if e.backed else 'not backed'}, claim by claim, as read:"]
    shown: set[int] = set()
    for s in e.sentences:
        if not s.get("claims"):
            continue
        out.append(f"  [{s['index']}] {s['text']}")
        for i in s["claims"]:
            shown.add(i)
            out.append(f"      {claim_line(e.numbers[i])}")
    if e.block:
        out.append("  claims block:")
        for b in e.block:
            if "claim" in b:
                shown.add(b["claim"])
                out.append(f"      {claim_line(e.numbers[b['claim']])}")
            else:
                out.append(f"      ?? {b['line']}")
    for i, n in enumerate(e.numbers):  # a stored check from before sentences were kept
        if i not in shown:
            out.append(f"  {claim_line(n)}")
    for point, ok in e.points.items():
        where = e.point_sentences.get(point)
        met = f"met by: {where!r}" if ok and where else "met" if ok else "NOT met"
        out.append(f"  point {point.replace('_', ' ')}: {met}")
    return out


def render(r: Recheck) -> str:
    lines = reading_lines(r.check)
    lines.append("")
    if r.reasons:
        lines.append(f"Level it would give: {r.level} (stored: {r.stored_level}). Why not 3:")
        lines += [f"  - {m}" for m in r.reasons]
    else:
        lines.append(f"Level it would give: {r.level} (stored: {r.stored_level}).")
    return "\n".join(lines)

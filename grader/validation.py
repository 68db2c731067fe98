"""A checkpoint opens only after a validation run: its reference grades correct, every
known-bad solution gets the verdict it names, and its starter is not accepted as is."""

from __future__ import annotations

from dataclasses import dataclass

from grader.checkpoints import Checkpoint
from grader.options import GradeOptions
from grader.pipeline import grade


@dataclass
class Check:
    name: str
    expected: str
    got: str
    ok: bool


def validate(checkpoint: Checkpoint, options: GradeOptions) -> list[Check]:
    checks = []
    ref = grade(checkpoint.reference_solution.read_text(), checkpoint, options)
    checks.append(
        Check("reference.py", "correct", ref.verdict.value, ref.verdict.value == "correct")
    )
    for wrong in checkpoint.wrong_solutions():
        r = grade(wrong.path.read_text(), checkpoint, options)
        ok = r.verdict.value in wrong.expect.split("|")
        checks.append(
            Check(f"solutions/wrong/{wrong.path.name}", wrong.expect, r.verdict.value, ok)
        )
    if checkpoint.starter is not None:
        r = grade(checkpoint.starter.read_text(), checkpoint, options)
        checks.append(
            Check("starter.py", "not correct", r.verdict.value, r.verdict.value != "correct")
        )
    if not checkpoint.wrong_solutions():
        checks.append(Check("solutions/wrong/", "at least one", "none", False))
    return checks

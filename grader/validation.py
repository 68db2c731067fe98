"""A checkpoint opens only after a validation run: its reference grades correct, every
known-bad solution gets the verdict it names, and its starter is not accepted as is.

The gradings are independent sandboxed runs, so they run side by side, one per core (an admin
waits for them in the request that adds the checkpoint)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from grader.checkpoints import Checkpoint
from grader.inputs import usable_cpus
from grader.options import GradeOptions
from grader.pipeline import grade


@dataclass
class Check:
    name: str
    expected: str
    got: str
    ok: bool


def validate(
    checkpoint: Checkpoint, options: GradeOptions, workers: int | None = None
) -> list[Check]:
    """The checks in a fixed order: reference, each wrong solution, starter. `workers`:
    gradings at a time (default: one per core)."""
    # (name, file, expected verdicts, accepted when the verdict is expected (or not))
    plan: list[tuple[str, Path, str, bool]] = [
        ("reference.py", checkpoint.reference_solution, "correct", True)
    ]
    for wrong in checkpoint.wrong_solutions():
        plan.append((f"solutions/wrong/{wrong.path.name}", wrong.path, wrong.expect, True))
    if checkpoint.starter is not None:
        plan.append(("starter.py", checkpoint.starter, "correct", False))

    def run(item: tuple[str, Path, str, bool]) -> Check:
        name, path, expect, wanted = item
        verdict = grade(path.read_text(), checkpoint, options).verdict.value
        ok = (verdict in expect.split("|")) == wanted
        return Check(name, expect if wanted else f"not {expect}", verdict, ok)

    with ThreadPoolExecutor(max_workers=max(1, workers or usable_cpus())) as pool:
        checks = list(pool.map(run, plan))
    if not checkpoint.wrong_solutions():
        checks.append(Check("solutions/wrong/", "at least one", "none", False))
    return checks

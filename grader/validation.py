"""A checkpoint opens only after a validation run: its reference grades correct, every
known-bad solution gets the verdict it names, and its starter is not accepted as is.

The gradings are independent sandboxed runs, so they run side by side, one per core. Each
check is reported as it finishes (`on_progress`), so that a caller can show the run live: the
service's validation task stores each one as it comes."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from grader.checkpoints import Checkpoint
from grader.options import GradeOptions
from grader.pipeline import grade
from grader.plan.inputs import usable_cpus


@dataclass
class Check:
    name: str
    expected: str
    got: str
    ok: bool
    reason: str = ""  # why the grading got what it got (its first message after the headline)


@dataclass(frozen=True)
class _Planned:
    name: str
    path: Path
    expect: str  # the verdict it must get; "a|b" accepts either
    wanted: bool  # passes when the verdict is expected (True) or when it is not (False)


# The checks so far, in their fixed order: None for those still running.
Progress = Callable[[list[Check | None]], None]


def _plan(checkpoint: Checkpoint) -> list[_Planned]:
    """The gradings, in the checks' fixed order: reference, each wrong solution, starter."""
    plan = [_Planned("reference.py", checkpoint.reference_solution, "correct", True)]
    for wrong in checkpoint.wrong_solutions():
        plan.append(_Planned(f"solutions/wrong/{wrong.path.name}", wrong.path, wrong.expect, True))
    if checkpoint.starter is not None:
        plan.append(_Planned("starter.py", checkpoint.starter, "correct", False))
    return plan


def _run(item: _Planned, checkpoint: Checkpoint, options: GradeOptions) -> Check:
    result = grade(item.path.read_text(), checkpoint, options)
    verdict = result.verdict.value
    ok = (verdict in item.expect.split("|")) == item.wanted
    expected = item.expect if item.wanted else f"not {item.expect}"
    return Check(item.name, expected, verdict, ok, _reason(result.messages))


def _reason(messages: list[str]) -> str:
    """Why the grading got its verdict: the message after the headline (which only restates
    the verdict: "Level 1 (wrong_answer): it runs, but …"), else the headline."""
    return messages[1] if len(messages) > 1 else messages[0] if messages else ""


def validate(
    checkpoint: Checkpoint,
    options: GradeOptions,
    workers: int | None = None,
    on_progress: Progress | None = None,
) -> list[Check]:
    """The checks in a fixed order: reference, each wrong solution, starter. `workers`:
    gradings at a time (default: one per core). `on_progress`, if given, is called with the
    checks so far (None where one still runs) once before the first grading and again as
    each check finishes, from the calling thread."""
    plan = _plan(checkpoint)
    checks: list[Check | None] = [None] * len(plan)
    if not checkpoint.wrong_solutions():
        checks.append(Check("solutions/wrong/", "at least one", "none", False))
    if on_progress is not None:
        on_progress(list(checks))
    with ThreadPoolExecutor(max_workers=max(1, workers or usable_cpus())) as pool:
        running = {pool.submit(_run, item, checkpoint, options): i for i, item in enumerate(plan)}
        for future in as_completed(running):
            checks[running[future]] = future.result()
            if on_progress is not None:
                on_progress(list(checks))
    return [c for c in checks if c is not None]

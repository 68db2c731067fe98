"""Validating a checkpoint runs its gradings side by side; the checks must be the sequential
run's, in the same order (reference, wrong solutions, starter)."""

from __future__ import annotations

import pytest

from grader import checkpoints
from grader.options import GradeOptions
from grader.validation import validate


@pytest.mark.slow
def test_side_by_side_validation_gives_the_sequential_checks_in_order() -> None:
    ck = checkpoints.get("c3a-vector-add")
    options = GradeOptions(device="cpu")
    one = validate(ck, options, workers=1)
    three = validate(ck, options, workers=3)
    assert [c.name for c in three] == [c.name for c in one]
    assert one[0].name == "reference.py" and one[-1].name == "starter.py"
    assert [(c.got, c.ok) for c in three] == [(c.got, c.ok) for c in one]
    assert all(c.ok for c in three), [(c.name, c.expected, c.got) for c in three]
    assert one[-1].expected == "not correct" and one[-1].got != "correct"


@pytest.mark.slow
def test_each_check_is_reported_as_it_finishes() -> None:
    ck = checkpoints.get("c3a-vector-add")
    seen: list[list[object]] = []
    checks = validate(ck, GradeOptions(device="cpu"), workers=2, on_progress=seen.append)
    assert seen[0] == [None] * len(checks)  # the plan, before any grading
    assert [sum(c is not None for c in s) for s in seen] == list(range(len(checks) + 1))
    assert seen[-1] == checks  # the last report is the result, in the fixed order
    assert checks[0].reason  # each check says why: the grading's first message

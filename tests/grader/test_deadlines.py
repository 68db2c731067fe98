"""A checkpoint's deadline: times read in its zone and kept in UTC, the order of opening, due
and late window, what an instant is (not open, on time, late, past) under each policy, and
hidden cases withheld from a stored result at read time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from grader.judge.hidden import withhold
from grader.models import Admission, CheckpointDef, DeadlineSpec, LatePolicy

DUE = datetime(2026, 12, 8, 22, 59, tzinfo=UTC)


def test_a_time_without_an_offset_is_read_in_the_zone_and_kept_in_utc() -> None:
    d = DeadlineSpec(due=datetime(2026, 12, 8, 23, 59), timezone="Europe/Berlin")
    assert d.due == DUE and d.due.tzinfo is UTC
    assert d.shown(d.due) == "2026-12-08 23:59 CET (Europe/Berlin)"
    # one with an offset keeps its instant
    d = DeadlineSpec(due=datetime(2026, 12, 8, 17, 59, tzinfo=UTC), timezone="America/New_York")
    assert d.shown(d.due) == "2026-12-08 12:59 EST (America/New_York)"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"timezone": "Mars/Olympus"}, "unknown time zone"),
        ({"opens": DUE}, "opens must be before due"),
        ({"late_until": DUE + timedelta(days=1)}, "needs policy = 'accept'"),
        ({"late_until": DUE, "policy": "accept"}, "must be after due"),
        ({"policy": "maybe"}, "policy"),
        ({"due": datetime(9999, 12, 31, 23), "timezone": "America/New_York"}, "out of range"),
    ],
)
def test_bad_deadlines_are_refused_with_a_reason(fields: dict[str, object], words: str) -> None:
    with pytest.raises(ValidationError, match=words):
        DeadlineSpec.model_validate({"due": DUE, **fields})


def test_admission_under_each_policy() -> None:
    opens = DUE - timedelta(days=7)
    refuse = DeadlineSpec(opens=opens, due=DUE)
    assert refuse.admission(opens - timedelta(seconds=1)) is Admission.NOT_OPEN
    assert refuse.admission(opens) is Admission.ON_TIME
    assert refuse.admission(DUE) is Admission.ON_TIME
    assert refuse.admission(DUE + timedelta(seconds=1)) is Admission.PAST
    window = DeadlineSpec(due=DUE, policy=LatePolicy.ACCEPT, late_until=DUE + timedelta(days=2))
    assert window.admission(DUE + timedelta(days=1)) is Admission.LATE
    assert window.admission(DUE + timedelta(days=2, seconds=1)) is Admission.PAST
    forever = DeadlineSpec(due=DUE, policy="accept")
    assert forever.admission(DUE + timedelta(days=400)) is Admission.LATE
    assert forever.is_late(DUE + timedelta(seconds=1)) and not forever.is_late(DUE)


def test_a_checkpoint_toml_deadline_table_loads() -> None:
    import tomllib

    text = """
id = "x"
title = "X"
entry = "f"
signature = "f(x)"
tolerances = { float32 = { atol = 1e-5, rtol = 1e-5 } }
interpreter_cases = [{ name = "a", shape = [2, 3] }]
[deadline]
opens = 2026-12-01T09:00:00
due = 2026-12-08T23:59:00
policy = "accept"
late_until = 2026-12-10T23:59:00+01:00
timezone = "Europe/Berlin"
"""
    d = CheckpointDef.model_validate(tomllib.loads(text)).deadline
    assert d is not None and d.due == DUE
    assert d.opens == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
    assert d.late_until == datetime(2026, 12, 10, 22, 59, tzinfo=UTC)


def _result() -> dict[str, object]:
    return {
        "checkpoint": "c3a-softmax",
        "verdict": "wrong_answer",
        "level": 1,
        "device": "cpu",
        "cases": [
            {"name": "odd-width", "passed": True, "shape": [4, 781], "dtype": "float32"},
            {
                "name": "secret-wide",
                "passed": False,
                "shape": [3, 3000],
                "dtype": "float32",
                "max_abs_err": 0.5,
                "message": "max abs err 0.5 at (2, 2999)",
                "hidden": True,
            },
        ],
        "configs": [
            {
                "config": "BLOCK=1024",
                "passed": False,
                "failed_cases": ["secret-wide"],
                "failed_widths": [3000],
            },
        ],
        "messages": [
            "Level 1 (wrong_answer): wrong on a case.",
            "Wrong on 1 of 2 cases (secret-wide). First failure: case 'secret-wide' (3, 3000)",
            "Your masks ...",
        ],
        "stdout": "x.shape = (3, 3000)",
    }


def test_hidden_cases_are_withheld_and_the_stored_result_is_unchanged() -> None:
    result = _result()
    seen = withhold(result)
    text = repr(seen)
    assert "secret-wide" not in text and "3000" not in text and "2999" not in text
    hidden = seen["cases"][1]  # type: ignore[index]
    assert hidden["name"] == "hidden-1" and hidden["message"].startswith("Failed: ")
    assert "hidden until the due time" in hidden["message"]
    assert seen["cases"][0] == result["cases"][0]  # type: ignore[index]
    assert seen["messages"][1].startswith("1 hidden case failed (hidden-1: ")  # type: ignore[index]
    assert seen["messages"][2] == "Your masks ..."  # type: ignore[index]
    assert seen["configs"][0]["failed_cases"] == ["hidden-1"]  # type: ignore[index]
    assert "secret-wide" in repr(result) and result == _result()
    # a result with no hidden case is given back as it is
    plain = {**_result(), "cases": [result["cases"][0]]}  # type: ignore[index]
    assert withhold(plain) is plain

"""A short burst through the HTTP API (benchmarks/load_burst.py, the same code as the full run):
every accepted submission graded exactly once. Counts only: the times are the script's to
report, not a test's to assert."""

from __future__ import annotations

import pytest

from benchmarks.load_burst import run_burst

pytestmark = pytest.mark.slow


def test_a_burst_from_many_students_is_graded_once_each() -> None:
    r = run_burst(40, 20, workers=2, timeout=600, echo=lambda *a, **k: None)
    assert r["errors"] == {} and r["accepted"] == 40
    assert (r["lost"], r["duplicates"], r["stored_though_refused"]) == (0, 0, 0)
    # any other verdict is the service's fault: say which, with its messages and the logs kept
    assert not r["timed_out"] and r["verdicts"] == {"correct": 40}, (r["unexpected"], r["logs"])

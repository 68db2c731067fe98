"""A submission that crashes is shown crashing once: the case it died in, then the cases that
never ran. Before, every call without a result counted as a wrong one, and a SIGSEGV on the
first call read "2 of 2 calls wrong" on every case (CLI) and "2 wrong" (web page)."""

from __future__ import annotations

from grader import render_report
from grader.judge.casegroups import group


def test_a_segfault_shows_the_crash_once_and_the_rest_never_ran(grade_fixture) -> None:  # type: ignore[no-untyped-def]
    result = grade_fixture("segfault_store.py")
    assert result.verdict.value == "runtime_error"
    groups = group(result.cases)
    assert [g.result for g in groups] == ["crashed"] + ["not run"] * (len(groups) - 1)
    assert sum(g.failed for g in groups) == 0  # no call returned a wrong answer
    report = render_report(result)
    assert "calls wrong" not in report
    case_lines = [ln for ln in report.splitlines() if ln.startswith("  ") and "(" in ln]
    assert "the process died during this case" in case_lines[0]
    assert all("never ran: the process had died" in ln for ln in case_lines[1 : len(groups)])
    assert report.count("SIGSEGV") == 1  # said once, in the messages


def test_wrong_answers_still_read_as_before(grade_fixture) -> None:  # type: ignore[no-untyped-def]
    result = grade_fixture(
        "../../../reference_kernels/c3a_softmax/solutions/wrong/lab_a1_autotune.py"
    )
    lines = render_report(result).splitlines()
    assert any(ln.startswith("  FAIL  odd-width") and "calls wrong)" in ln for ln in lines)
    assert all(g.not_run == 0 and not g.crashed for g in group(result.cases))

"""Issue 31's result-page wording, where each message is made: a hidden case's failure said
without None, a NaN mismatch counted (never a zero error), cases in the checkpoint's order,
the server's paths out of the shown output, a wrong shape said plainly, hints only where they
can apply, the autotune configs listed once."""

from __future__ import annotations

import random
import sys
import sysconfig
from pathlib import Path

import torch

from grader import checkpoints, render_report
from grader.judge.casegroups import group
from grader.judge.collect import Collected, Record
from grader.judge.compare import Comparison, compare
from grader.judge.evaluate import evaluate
from grader.judge.hidden import withhold
from grader.models import CaseResult, CaseSpec, GradeResult, Tolerance, Verdict
from grader.plan.runs import PlannedRun
from grader.sandbox.bwrap import RunOutcome
from grader.text import server_paths_hidden
from tests.conftest import FIXTURES, GradeFn

ROOT = Path(__file__).resolve().parents[2]
TOL = Tolerance(atol=1e-5, rtol=1e-5)


def _hidden_result() -> dict[str, object]:
    return {
        "checkpoint": "c3a-softmax",
        "verdict": "wrong_answer",
        "level": 1,
        "device": "cpu (Triton interpreter)",
        "cases": [
            {
                "name": "secret-wide",
                "passed": False,
                "shape": [3, 3000],
                "dtype": "float32",
                "message": "12 of 9000 elements are NaN where the reference is finite (first at "
                "row 0, column 2999, expected 0.1)",
                "failure": "nan",
                "nonfinite": 12,
                "hidden": True,
            },
            {"name": "odd-width", "passed": True, "shape": [4, 781], "dtype": "float32"},
        ],
        "messages": [
            "Level 1 (wrong_answer): it runs, but its output is wrong on at least one case.",
            "Wrong on 1 of 2 cases (secret-wide). First failure: case 'secret-wide' (3, 3000) "
            "float32: 12 of 9000 elements are NaN …",
        ],
    }


def test_a_hidden_case_that_fails_first_says_how_and_until_when_never_none() -> None:
    seen = withhold(_hidden_result(), "2026-12-08 23:59 CET (Europe/Berlin)")
    case = seen["cases"][0]  # type: ignore[index]
    assert "NaN where the reference is finite" in case["message"]
    assert "hidden until 2026-12-08 23:59 CET (Europe/Berlin)" in case["message"]
    assert "secret-wide" not in repr(seen) and "3000" not in repr(seen)
    summary = seen["messages"][1]  # type: ignore[index]
    assert summary.startswith("1 hidden case failed (hidden-1: NaN where the reference")
    assert "2026-12-08 23:59 CET" in summary
    # the CLI's report of it: no "None" for the shape and dtype, no NaN count of a hidden case
    text = render_report(GradeResult.model_validate(seen))
    assert "None" not in text and "hidden until the due time" in text
    (g,) = [g for g in group([CaseResult.model_validate(c) for c in seen["cases"]]) if g.hidden]  # type: ignore[attr-defined]
    assert g.shape_text == "hidden until the due time" and g.error == ""


def test_a_stored_hidden_case_without_its_kind_reads_it_off_its_message() -> None:
    old = _hidden_result()
    old["cases"][0].pop("failure")  # type: ignore[index]
    case = withhold(old)["cases"][0]  # type: ignore[index]
    assert case["message"].startswith("Failed: NaN where the reference is finite")


def test_a_nan_mismatch_is_counted_and_never_reported_as_a_zero_error() -> None:
    ref = torch.arange(12.0).reshape(3, 4)
    out = ref.clone()
    out[2, 1:] = float("nan")
    c = compare(out, ref, TOL)
    assert c.kind == "nan" and c.nonfinite == 3 and c.max_abs_err is None
    assert c.message.startswith("3 of 12 elements are NaN where the reference is finite")
    assert "row 2, column 1" in c.message
    inf = out.clone().nan_to_num(nan=float("inf"))
    c = compare(inf, ref, TOL)
    assert c.kind == "inf" and c.nonfinite == 3 and "3 of 12 elements are infinite" in c.message
    # one right call (exact: error 0) and one NaN call of the same case: the row said 0.00e+00
    right = CaseResult(name="odd", passed=True, max_abs_err=0.0, shape=[3, 4])
    wrong = CaseResult(name="odd", passed=False, message="…", failure="nan", nonfinite=3)
    (g,) = group([right, wrong])
    assert g.error == "NaN/inf in 3 elements"
    worse = CaseResult(name="odd", passed=False, max_abs_err=0.5, failure="values")
    assert group([right, worse])[0].error == "5.00e-01"  # the wrong call's error, not 0


def _run(i: int, name: str, draw: int) -> PlannedRun:
    return PlannedRun(i, CaseSpec(name=name, shape=[2]), draw, [], torch.zeros(2))


def test_cases_keep_the_checkpoints_order_whatever_order_the_child_ran_them_in() -> None:
    runs = [
        _run(i, name, draw)
        for i, (name, draw) in enumerate(
            (n, d) for n in ("size-1", "odd", "pow2", "big") for d in range(2)
        )
    ]
    orders = set()
    for seed in range(6):
        shuffled = runs[:]
        random.Random(seed).shuffle(shuffled)  # as harness/child.py runs them
        records = [
            Record(r, None, launches=1, comparison=Comparison(r.case.name != "odd", 0.0, "x"))
            for r in shuffled
        ]
        ev = evaluate(runs, Collected(True, True, records=records), RunOutcome(0), True)
        orders.add(tuple((c.name, c.draw) for c in ev.cases))
        assert ev.messages[0].startswith("Wrong on 1 of 4 cases (odd)")
    assert orders == {tuple((r.case.name, r.draw) for r in runs)}


def test_the_servers_folders_are_left_out_of_the_shown_output() -> None:
    site = sysconfig.get_paths()["purelib"]
    warning = (
        f"{site}/triton/runtime/interpreter.py:599: RuntimeWarning: invalid value encountered "
        f"in subtract\n  output = op(lhs.data, rhs.data)\n{ROOT}/grader/x.py:1: note\n"
        f"{sys.prefix}/bin/python"
    )
    shown = server_paths_hidden(warning)
    assert shown.startswith("<site-packages>/triton/runtime/interpreter.py:599: RuntimeWarning")
    assert str(ROOT) not in shown and sys.prefix not in shown and site not in shown
    assert "<kgrade>/grader/x.py:1" in shown


def test_a_correct_softmax_shows_its_interpreter_warning_without_the_servers_path(
    grade_source: GradeFn,
) -> None:
    result = grade_source((ROOT / "reference_kernels/c3a_softmax/reference.py").read_text())
    assert result.verdict is Verdict.CORRECT
    assert sys.prefix not in result.stdout and str(ROOT) not in result.stdout
    assert "/site-packages/" not in result.stdout


TRANSPOSED = """
def softmax_triton(x):
    y = _reference_softmax(x)
    return y.t().contiguous() if x.shape[0] == 37 else y
"""


def test_a_wrong_output_shape_is_said_plainly(grade_source: GradeFn) -> None:
    source = (ROOT / "reference_kernels/c3a_softmax/reference.py").read_text()
    source = source.replace("def softmax_triton(", "def _reference_softmax(") + TRANSPOSED
    result = grade_source(source)
    assert result.verdict is Verdict.WRONG_ANSWER
    (case,) = {c.message for c in result.cases if c.name == "tall-skinny"}
    assert case.startswith("wrong shape: expected (37, 33), got (33, 37)"), case
    assert "announced" not in " ".join(result.messages)
    assert {c.failure for c in result.cases if not c.passed} == {"shape"}


def test_a_vector_adds_nan_gets_no_exp_or_row_hint_and_its_configs_once(
    grade_source: GradeFn,
) -> None:
    source = (FIXTURES / "wording" / "vector_add_tail_config.py").read_text()
    result = grade_source(source, "c3a-vector-add")
    assert result.verdict is Verdict.WRONG_ANSWER
    text = "\n".join(result.messages)
    assert "exp()" not in text and "row" not in text, text
    assert "never wrote shows up as NaN" in text  # the poison's cause applies everywhere
    assert "wrong for widths" not in text  # the configs are listed by the views, once
    report = render_report(result)
    assert (
        report.count("_add_kernel(BLOCK=128") == 2
    )  # the first failure's config, and its list line
    assert "  FAIL  _add_kernel(BLOCK=128, num_warps=4): wrong for widths 1, 100," in report
    assert "0.00e+00" not in report and "  NaN/inf in 1 element  (" in report
    assert [c.name for c in result.cases][::4] == [
        c.name for c in checkpoints.get("c3a-vector-add").definition.interpreter_cases
    ]


def test_softmaxs_unshifted_exp_gets_its_checkpoints_hint(grade_source: GradeFn) -> None:
    wrong = ROOT / "reference_kernels/c3a_softmax/solutions/wrong/no_max_subtraction.py"
    result = grade_source(wrong.read_text())
    assert result.verdict is Verdict.WRONG_ANSWER
    assert "subtract the row's max first" in "\n".join(result.messages), result.messages

"""The child's text in a result is capped after it is escaped (grader/judge/budget.py): the
result's JSON stays under 64 KiB of it whatever the characters (each escaped to four or six
characters, or stored as twelve bytes), and an ordinary result is left as it is."""

from __future__ import annotations

import json

import pytest

from grader.judge import budget
from grader.judge.casegroups import group as group_cases
from grader.models import CaseResult, ConfigResult, GradeResult, Verdict
from grader.text import cap_json, json_cost, untrusted

CAP = 64 * 1024
# the widest characters: a C0 control (\x01: 5 bytes), a bidi override (\u202e: 7), a
# character past the BMP (12 bytes as ASCII JSON), a quote and a backslash (2 each)
WORST = ["\x01", "\u202e", "\U0001f600", '"', "\\", "\x9b"]


def _flooded(ch: str) -> GradeResult:
    text = untrusted(ch * 70_000, lines=True)
    cases = [CaseResult(name=f"c{i}", passed=False, message=text, config=text) for i in range(100)]
    configs = [ConfigResult(config=text, passed=False) for _ in range(64)]
    return GradeResult(
        checkpoint="c3a-softmax",
        verdict=Verdict.RUNTIME_ERROR,
        level=1,
        device="cpu",
        cases=cases,
        configs=configs,
        messages=[text] * 12,
        stdout=text,
    )


@pytest.mark.parametrize("ch", WORST)
def test_a_flood_of_the_widest_characters_keeps_the_result_under_the_cap(ch: str) -> None:
    result = budget.fit(_flooded(ch))
    stored = json.dumps(result.model_dump(mode="json"))  # ASCII JSON, as the service stores
    child_text = (
        json_cost(result.stdout)
        + sum(map(json_cost, result.messages))
        + sum(json_cost(c.message) + json_cost(c.config or "") for c in result.cases)
        + sum(json_cost(c.config) for c in result.configs)
    )
    assert child_text < CAP
    # + the cases' own fields (name, shape, dtype, verdict fields: about 211 bytes a case since
    # a case says its kind of failure and its non-finite count), never the child's text
    assert len(result.model_dump_json().encode()) < CAP + 100 * 300
    assert len(stored) < CAP + 100 * 300


def test_an_ordinary_result_is_left_as_it_is() -> None:
    result = GradeResult(
        checkpoint="c3a-softmax",
        verdict=Verdict.CORRECT,
        level=2,
        device="cpu",
        messages=["Level 2: correct", "Error: x" * 200],
        cases=[CaseResult(name="a", passed=True, message="ok", config="BLOCK=64")],
        configs=[ConfigResult(config="BLOCK=64, num_warps=4", passed=True)],
        stdout="hello\n" * 2000,
    )
    before = result.model_dump()
    assert budget.fit(result).model_dump() == before


def test_cap_json_counts_the_escapes_and_ends_in_an_ellipsis() -> None:
    text = untrusted("\x01" * 1000)
    kept = cap_json(text, 100)
    assert json_cost(kept) <= 100 and kept.endswith("…") and kept.startswith("\\x01")
    assert cap_json("short", 100) == "short"


def _autotuned(configs: int, runs: int, failing: set[int]) -> GradeResult:
    cases = [
        CaseResult(
            name=f"case-{r % 7}",
            passed=(k * runs + r) not in failing,
            max_abs_err=1e-7,
            shape=[4096, 600],
            dtype="float32",
            draw=r // 7,
            config=f"P_{'x' * 270}{k}: 1, num_warps: 1",
        )
        for k in range(configs)
        for r in range(runs)
    ]
    return GradeResult(
        checkpoint="c3a-vector-add",
        verdict=Verdict.CORRECT if not failing else Verdict.WRONG_ANSWER,
        level=2,
        device="cpu",
        cases=cases,
        configs=[ConfigResult(config=c.config or "", passed=True) for c in cases[::runs]],
        messages=["Level 2: correct"],
    )


def test_an_autotuners_every_call_is_counted_within_the_cap() -> None:
    """Red team 3 (x22): 64 configs x 14 calls listed one row each made a 200 KB result. Past
    MAX_CASES rows a case's passing calls are one row that counts them: every call counted."""
    before = _autotuned(64, 14, set())
    worst = max(c.max_abs_err or 0 for c in before.cases)
    result = budget.fit(before)
    assert len(result.cases) == 7 and sum(c.calls for c in result.cases) == 896
    assert {c.name for c in result.cases} == {f"case-{i}" for i in range(7)}
    assert max(c.max_abs_err or 0 for c in result.cases) == worst
    assert "counts all 896 calls in 7 rows" in result.messages[-1]
    assert len(result.model_dump_json().encode()) < CAP
    groups = group_cases(result.cases)
    assert [g.calls for g in groups] == [128] * 7 and all(g.passed for g in groups)


def test_the_failing_calls_keep_rows_of_their_own_and_every_count_is_kept() -> None:
    failing = set(range(0, 896, 3))  # 299 failing calls: the first 64 keep their own rows
    before = _autotuned(64, 14, failing)
    want = [(g.name, g.calls, g.failed) for g in group_cases(before.cases)]
    position = {id(c): i for i, c in enumerate(before.cases)}  # fit keeps the objects
    result = budget.fit(before)
    assert len(result.cases) <= budget.MAX_CASES
    assert [(g.name, g.calls, g.failed) for g in group_cases(result.cases)] == want
    own = [position[id(c)] for c in result.cases if id(c) in position]
    assert own == sorted(failing)[: budget.MAX_CASES // 2]
    assert "first failing calls are each a row" in result.messages[-1]
    assert len(result.model_dump_json().encode()) < CAP


def test_a_table_under_the_cap_is_left_whole() -> None:
    result = budget.fit(_autotuned(9, 14, {3}))
    assert len(result.cases) == 126 and result.messages == ["Level 2: correct"]


def test_calls_with_no_result_keep_the_crash_and_the_count_of_calls_not_run() -> None:
    from grader.judge.casegroups import MISSING

    before = _autotuned(64, 14, set())
    for c in before.cases[300:]:  # the process died in call 300: no result after it
        c.passed, c.message, c.max_abs_err = False, MISSING, None
    want = [(g.name, g.calls, g.crashed, g.not_run, g.failed) for g in group_cases(before.cases)]
    result = budget.fit(before)
    got = [(g.name, g.calls, g.crashed, g.not_run, g.failed) for g in group_cases(result.cases)]
    assert got == want and len(result.cases) <= budget.MAX_CASES

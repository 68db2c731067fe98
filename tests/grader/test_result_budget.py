"""The child's text in a result is capped after it is escaped (grader/judge/budget.py): the
result's JSON stays under 64 KiB of it whatever the characters (each escaped to four or six
characters, or stored as twelve bytes), and an ordinary result is left as it is."""

from __future__ import annotations

import json

import pytest

from grader.judge import budget
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

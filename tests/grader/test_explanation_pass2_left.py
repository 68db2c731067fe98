# ruff: noqa: E501  (the cases are explanations, one a line)
"""Issue 30's second blind pass, the true texts still refused after classes A-G
(benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-2.md). Classes here:

P. a parenthesis right after a compared-with baseline holds that baseline's figures, all of
   them when they are of different quantities ("than the naive version (1.24 GB over nine
   kernels)", "나이브 버전(커널 9개, 1.24 GB)보다"); two figures of one quantity there are
   still the two sides of the comparison;

Each case: (class, language, grading, text, what a refusal must name; None: backed)."""

from __future__ import annotations

import pytest

from tests.grader.test_explanation_pass2 import BASE, SM, check, report_case

FIG_PAREN = {
    "en": "On the course shape my kernel moves 244 MB, 4.16× less than the naive version ({x}), and it is 1.62× faster than torch.",
    "es": "En la forma del curso mi kernel mueve 244 MB, 4,16 veces menos que la versión ingenua ({x}), y es 1,62 veces más rápido que torch.",
    "ko": "강의 shape에서 제 커널의 DRAM 트래픽은 244 MB로 나이브 버전({x})보다 4.16배 적고, torch보다 1.62배 빠릅니다.",
}


def paren(lang: str, inside: str) -> str:
    return f"{BASE[lang]} {FIG_PAREN[lang].format(x=inside)}"


CASES: list[tuple[str, str, str, str, str | None]] = [
    # -- P. a parenthesis after the compared-with baseline is the baseline's -----------------
    ("P", "en", SM, paren("en", "1.02 GB over five kernels"), None),
    ("P", "en", SM, paren("en", "five kernels, 1.02 GB"), None),
    ("P", "en", SM, paren("en", "1.02 GB over two kernels"), "5"),
    ("P", "en", SM, paren("en", "3.5 GB over five kernels"), "1.02 GB"),
    ("P", "es", SM, paren("es", "1,02 GB en cinco kernels"), None),
    ("P", "es", SM, paren("es", "1,02 GB en dos kernels"), "5"),
    ("P", "ko", SM, paren("ko", "커널 5개, 1.02 GB"), None),
    ("P", "ko", SM, paren("ko", "커널 5개, 3.5 GB"), "1.02 GB"),
    ("P", "ko", SM, paren("ko", "커널 2개, 1.02 GB"), "5"),
]

# the report's own texts, by class: each must now get the verdict its truth says
REPORT_IDS = {
    "P": ["en-t07", "es-t07", "ko-t07"],
}


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c[0]}-{c[1]}-{'true' if c[4] is None else 'false'}-{i}" for i, c in enumerate(CASES)],
)
def test_pass2_left_variants(case: tuple[str, str, str, str, str | None]) -> None:
    _, _, name, text, refusal = case
    c = check(text, name)
    if refusal is None:
        assert c.backed, (c.messages, c.numbers)
    else:
        assert not c.backed
        assert any(refusal in m for m in c.messages), c.messages


@pytest.mark.parametrize("case_id", [i for ids in REPORT_IDS.values() for i in ids])
def test_pass2_left_report_texts(case_id: str) -> None:
    x = report_case(case_id)
    c = check(str(x["text"]), str(x["grading"]))
    assert c.backed is (x["truth"] == "true"), c.messages

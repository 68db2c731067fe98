"""Regression (CI, stop 36): side-by-side validation graded the honest reference as
`internal_error` with "SystemError: AST constructor recursion depth mismatch". CPython 3.11
shares the AST constructor's recursion counter between threads; a collection inside one
thread's parse can run a finalizer that lets a second thread parse at the same time."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from grader import syntax

SOURCE = (Path(__file__).parents[2] / "grader" / "judge" / "static.py").read_text()


class _Cycle:
    def __del__(self) -> None:
        sum(range(50))  # Python code in a finalizer: a point where the GIL can change hands


def test_parses_from_several_threads_at_once_never_fail_spuriously() -> None:
    errors: list[str] = []

    def churn() -> None:  # cyclic garbage with finalizers, so collections run mid-parse
        for _ in range(200_000):
            a, b = _Cycle(), _Cycle()
            a.other, b.other = b, a  # type: ignore[attr-defined]

    def parse() -> None:
        for _ in range(300):
            try:
                syntax.parse(SOURCE)
            except SystemError as exc:
                errors.append(str(exc))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        churner = threading.Thread(target=churn)
        churner.start()
        parsers = [threading.Thread(target=parse) for _ in range(3)]
        for t in parsers:
            t.start()
        for t in parsers:
            t.join()
    finally:
        churner.join()
        sys.setswitchinterval(old)
    assert errors == []

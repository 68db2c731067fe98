"""A hundred students posting at the same moment through uvicorn (PostgreSQL, a private Redis,
no workers: admission only). Every request is accepted: none may fail because the API ran out
of database connections or threads."""

from __future__ import annotations

import pytest

from benchmarks.load_burst import run_burst

pytestmark = pytest.mark.slow


def test_a_hundred_students_at_once_are_all_accepted() -> None:
    r = run_burst(300, 100, workers=0, drain=False, echo=lambda *a, **k: None)
    assert r["errors"] == {}, r["errors"]
    assert (r["accepted"], r["lost"], r["duplicates"]) == (300, 0, 0)

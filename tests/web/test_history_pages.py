"""/history's filters in a real browser (Chromium) against uvicorn on PostgreSQL and Redis: an
instructor picks a student, then a section, and sees only theirs."""

from __future__ import annotations

import pytest

from app.db import transaction
from app.models import User
from tests.service.conftest import stored
from tests.service.test_cli_course import server  # noqa: F401 (a fixture: uvicorn alone)
from tests.web.test_pages import CHROMIUM, _sign_in, browser  # noqa: F401

pytestmark = [pytest.mark.slow]
RESULT = {"checkpoint": "c3a-softmax", "device": "cpu", "verdict": "correct", "level": 2}


def test_an_instructor_filters_the_history_by_student_and_section(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    for name in ("ann", "bob", "cy"):
        make_user(name)
    with transaction() as s:
        for name, section in (("ann", "A"), ("bob", "B"), ("cy", "A")):
            s.query(User).filter_by(name=name).one().section = section
    for name in ("ann", "bob", "cy", "ann"):
        stored(name, RESULT)
    page = _sign_in(browser, server, prof)
    page.goto(f"{server}/history")

    def students() -> list[str]:
        rows = page.locator("main table tr")
        return [rows.nth(i).locator("td").nth(2).inner_text() for i in range(1, rows.count())]

    assert sorted(students()) == ["ann", "ann", "bob", "cy"]
    page.fill("#history-filters input[name=student]", "ann")
    page.click("#history-filters button")
    page.wait_for_url("**student=ann**")
    assert students() == ["ann", "ann"]
    page.fill("#history-filters input[name=student]", "")
    page.fill("#history-filters input[name=section]", "A")
    page.click("#history-filters button")
    page.wait_for_url("**section=A**")
    assert sorted(students()) == ["ann", "ann", "cy"]

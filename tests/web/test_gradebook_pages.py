"""The gradebook from the leaderboard page in a real browser (Chromium) against uvicorn on
PostgreSQL and Redis: the course's CSV link, filtered by the section picked, downloads every
rostered student of that section with a column per checkpoint, the override marked."""

from __future__ import annotations

import csv
import io

import pytest

from tests.service.test_cli_course import server  # noqa: F401 (a fixture: uvicorn alone)
from tests.service.test_gradebook import _course, _done
from tests.web.test_pages import CHROMIUM, _sign_in, browser  # noqa: F401

pytestmark = [pytest.mark.slow]


def test_the_gradebook_link_follows_the_section_picked(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    import httpx

    prof = _course(make_user)
    sid = _done("ann", "c3a-softmax", 2)
    httpx.post(
        f"{server}/api/submissions/{sid}/override",
        headers=prof,
        json={"level": 1, "note": "copied"},
    ).raise_for_status()
    page = _sign_in(browser, server, prof["Authorization"].split()[1])
    page.goto(f"{server}/leaderboard/c3a-softmax?section=A")
    link = page.locator("#export-gradebook")
    assert "section A" in link.inner_text()
    with page.expect_download() as got:
        link.click()
    text = open(got.value.path(), encoding="utf-8").read()  # noqa: SIM115
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(text))}
    assert list(rows) == ["ann", "cy"]
    assert rows["ann"]["c3a-softmax"] == "1" and "override" in rows["ann"]["c3a-softmax marks"]
    assert rows["cy"]["c3a-softmax marks"] == "none"

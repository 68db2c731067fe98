"""Deadlines, hidden cases and the leaderboard's picker in a real browser (Debian's Chromium,
driven by Playwright) against uvicorn on PostgreSQL and Redis. No worker: the submissions
here are refused or admitted (queued), and the graded results are stored as a worker would
store them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.service.conftest import stored
from tests.service.test_cli_course import server  # noqa: F401 (a fixture: uvicorn alone)
from tests.web.test_pages import CHROMIUM, SHOTS, SOFTMAX, _sign_in, browser  # noqa: F401

pytestmark = [pytest.mark.slow]
BERLIN = ZoneInfo("Europe/Berlin")


def _tokens(make_user, *who: tuple[str, str]) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {n: make_user(n, r)["Authorization"].split()[1] for n, r in who}


def _set_deadline(page, url: str, due: datetime, policy: str) -> None:  # type: ignore[no-untyped-def]
    """The instructor's form on /deadlines, the due time typed in Berlin's time."""
    page.goto(f"{url}/deadlines")
    card = page.locator('section.deadline[data-checkpoint="c3a-softmax"]')
    card.locator("input[name=due]").fill(due.astimezone(BERLIN).strftime("%Y-%m-%dT%H:%M:%S"))
    card.locator("select[name=policy]").select_option(policy)
    card.locator("input[name=timezone]").fill("Europe/Berlin")
    card.locator("button.primary").click()
    page.wait_for_url(f"{url}/deadlines")


def _submit(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/submit?checkpoint=c3a-softmax")
    page.fill("#source", (SOFTMAX / "reference.py").read_text())
    page.click("text=Submit for grading")
    page.wait_for_load_state()


def test_a_student_submits_before_and_after_the_due_time(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    t = _tokens(make_user, ("ann", "student"), ("prof", "instructor"))
    ann, prof = _sign_in(browser, server, t["ann"]), _sign_in(browser, server, t["prof"])
    _set_deadline(prof, server, datetime.now(UTC) + timedelta(hours=1), "accept")
    _submit(ann, server)
    assert "/submissions/" in ann.url and ann.locator("#late-mark").count() == 0
    # the instructor moves the due time to now: the next submission is late
    due = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
    _set_deadline(prof, server, due, "accept")
    current = prof.inner_text('section.deadline[data-checkpoint="c3a-softmax"] .current')
    assert (
        due.astimezone(BERLIN).strftime("%Y-%m-%d %H:%M") in current
        and "(Europe/Berlin)" in current
    )
    prof.screenshot(path=str(SHOTS / "deadlines.png"), full_page=False)
    ann.wait_for_timeout(1500)
    _submit(ann, server)
    assert ann.inner_text("#late-mark") == "late"
    ann.goto(f"{server}/")
    card = ann.locator('section.checkpoint[data-checkpoint="c3a-softmax"]')
    assert "(Europe/Berlin)" in card.locator(".deadline .due").inner_text()
    assert "marked late" in card.locator(".deadline").inner_text()
    rows = card.locator("table.history tr")
    assert rows.count() == 3  # the header, the late one, the one on time
    assert "late" in rows.nth(1).inner_text() and "late" not in rows.nth(2).inner_text()
    ann.screenshot(path=str(SHOTS / "home-deadline.png"), full_page=False)
    # refused from now on: a clear page, the text kept, nothing stored
    _set_deadline(prof, server, due, "refuse")
    _submit(ann, server)
    assert "/submit" in ann.url
    assert "takes no more submissions: it was due at" in ann.inner_text(".error")
    assert "softmax" in ann.input_value("#source")
    ann.goto(f"{server}/history")
    assert ann.locator("table tr").count() == 3


def _hidden_result() -> dict[str, object]:
    return {
        "checkpoint": "c3a-softmax",
        "verdict": "wrong_answer",
        "level": 1,
        "device": "cpu (Triton interpreter)",
        "cases": [
            {"name": "odd-width", "passed": True, "shape": [4, 781], "dtype": "float32"},
            {
                "name": "secret-wide",
                "passed": False,
                "shape": [3, 3000],
                "dtype": "float32",
                "message": "max abs err 0.5",
                "hidden": True,
            },
        ],
        "messages": ["Level 1 (wrong_answer): …", "Wrong on 1 of 2 cases (secret-wide)."],
    }


def test_hidden_cases_are_hidden_before_the_due_time_and_shown_after(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    t = _tokens(make_user, ("ann", "student"), ("prof", "instructor"))
    sid = stored("ann", _hidden_result())
    ann, prof = _sign_in(browser, server, t["ann"]), _sign_in(browser, server, t["prof"])
    _set_deadline(prof, server, datetime.now(UTC) + timedelta(days=1), "refuse")
    ann.goto(f"{server}/submissions/{sid}")
    text = ann.inner_text("#result")
    assert "secret-wide" not in text and "3000" not in text and "hidden-1" in text
    assert "shown after the due time" in text
    prof.goto(f"{server}/submissions/{sid}")
    assert "secret-wide" in prof.inner_text("#result")  # staff always see them
    _set_deadline(prof, server, datetime.now(UTC) - timedelta(minutes=1), "refuse")
    ann.reload()
    assert "secret-wide" in ann.inner_text("#result")  # no regrade: decided when read


def test_the_leaderboard_picker_and_filters(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    from app.db import transaction
    from app.models import User

    t = _tokens(make_user, ("prof", "instructor"), ("ann", "student"), ("bob", "student"))
    make_user("cy")
    with transaction() as s:
        for name, section in (("ann", "A"), ("bob", "B"), ("cy", "A")):
            s.query(User).filter_by(name=name).one().section = section
    result = {"verdict": "correct", "device": "cuda", "messages": ["Level 3"]}
    for name, cp, level, speedup, late in (
        ("ann", "c3a-softmax", 3, 1.4, False),
        ("bob", "c3a-softmax", 3, 1.6, False),
        ("cy", "c3a-softmax", 3, 2.5, True),
        ("bob", "c3a-rmsnorm", 2, None, False),
    ):
        stored(
            name,
            {**result, "checkpoint": cp, "level": level},
            cp,
            gpu_model="h200",
            speedup=speedup,
            late=late,
        )
    prof = _sign_in(browser, server, t["prof"])
    prof.click("header >> text=Leaderboard")
    prof.wait_for_url(f"{server}/leaderboard/*")
    prof.select_option("#pick-checkpoint", "c3a-softmax")
    prof.click("#board-filters button")
    prof.wait_for_url(f"{server}/leaderboard/c3a-softmax")
    board = prof.inner_text("main table")
    assert "bob" in board and "ann" in board and "cy" not in board  # cy's only result is late
    prof.check("#pick-late")
    prof.click("#board-filters button")
    prof.wait_for_url("**late=include")
    assert "cy" in prof.inner_text("main table")
    prof.select_option("#pick-section", "A")
    prof.click("#board-filters button")
    prof.wait_for_url("**section=A**")
    board = prof.inner_text("main table")
    assert "ann" in board and "cy" in board and "bob" not in board
    prof.screenshot(path=str(SHOTS / "leaderboard-picker.png"), full_page=False)
    prof.select_option("#pick-checkpoint", "c3a-rmsnorm")
    prof.select_option("#pick-section", "")
    prof.click("#board-filters button")
    prof.wait_for_url(f"{server}/leaderboard/c3a-rmsnorm**")
    assert "bob" in prof.inner_text("main table")
    missing = prof.goto(f"{server}/leaderboard/c3a-nope")
    assert missing is not None and missing.status == 404
    assert "c3a-nope" in prof.inner_text(".error")

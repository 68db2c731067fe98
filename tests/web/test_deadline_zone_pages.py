"""The deadlines page in a real browser, on PostgreSQL and on SQLite (the embedded default), in
a zone west of UTC and one east of it: a due time typed just after a daylight-saving change is
shown back as typed, and a student 20 minutes before it is admitted (SQLite once read it back
in the deadline's zone: five hours late in New York, an hour early in Berlin)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.service.test_deadline_zones import _user, backend, server  # noqa: F401 (fixtures)
from tests.web.test_pages import CHROMIUM, _sign_in, browser  # noqa: F401

pytestmark = [pytest.mark.slow]


def _set(page, url: str, typed: str, tz: str) -> str:  # type: ignore[no-untyped-def]
    page.goto(f"{url}/deadlines")
    card = page.locator('section.deadline[data-checkpoint="c3a-softmax"]')
    card.locator("input[name=due]").fill(typed)
    card.locator("select[name=policy]").select_option("refuse")
    card.locator("input[name=timezone]").fill(tz)
    card.locator("button.primary").click()
    page.wait_for_url(f"{url}/deadlines")
    return str(page.inner_text('section.deadline[data-checkpoint="c3a-softmax"] .current'))


@pytest.mark.parametrize("tz", ["America/New_York", "Europe/Berlin"])
def test_a_due_time_typed_in_a_zone_is_shown_and_kept_as_typed(
    server: str,  # noqa: F811
    browser,  # noqa: F811
    tz: str,
) -> None:  # type: ignore[no-untyped-def]
    prof = _sign_in(browser, server, _user("prof", "instructor"))
    after_dst = {"America/New_York": "2026-11-01T20:30", "Europe/Berlin": "2026-10-25T20:30"}
    name = {"America/New_York": "EST", "Europe/Berlin": "CET"}[tz]
    current = _set(prof, server, after_dst[tz], tz)
    assert f"Due {after_dst[tz].replace('T', ' ')} {name} ({tz})" in current
    soon = datetime.now(UTC) + timedelta(minutes=20)
    _set(prof, server, soon.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%dT%H:%M:%S"), tz)
    ann = _sign_in(browser, server, _user("ann", "student"))
    ann.goto(f"{server}/submit?checkpoint=c3a-softmax")
    ann.fill("#source", "import triton\n")
    ann.click("text=Submit for grading")
    ann.wait_for_url(f"{server}/submissions/*")  # admitted: 20 minutes before the due time

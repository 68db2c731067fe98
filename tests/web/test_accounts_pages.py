"""Accounts in a real browser (Debian's Chromium): an instructor imports a roster on the
accounts page and the invite links appear; a student opens hers, sets a password, lands on her
home page, signs out and in again with name and password, and makes a CLI token. The home
page's screenshot (docs/screenshots/home.png) shows her softmax versions on the roofline:
results recorded on an H200 (benchmarks/results/2026-11-29-h200-references.json), stored as
hers, as the citable screenshots are."""

from __future__ import annotations

import json
from pathlib import Path

from tests.service.conftest import stored
from tests.web.test_pages import ROOT, SHOTS, _sign_in, browser, live  # noqa: F401 (fixtures)

RECORD = json.loads(
    (ROOT / "benchmarks" / "results" / "2026-11-29-h200-references.json").read_text()
)
PASSWORD = "a long enough password"


def _store_history(name: str) -> None:
    """Her lab's versions: a first one wrong on the CPU, then two GPU gradings."""
    wrong = {
        "checkpoint": "c3a-softmax",
        "verdict": "wrong_answer",
        "level": 1,
        "device": "cpu (Triton interpreter)",
        "messages": [
            "Level 1 (wrong_answer): it runs, but its output is wrong on at least one case.",
            "Wrong on 5 of 7 cases (odd-width, wide-pow2, large-magnitude, masked-entries, "
            "fp16-odd).",
        ],
    }
    for r in (wrong, RECORD["c3a-softmax"]["first"], RECORD["c3a-softmax"]["second"]):
        stored(name, r)


def test_an_instructor_imports_a_roster_and_a_student_signs_in_with_her_link(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811 (the imported fixture)
    browser,  # noqa: F811
    make_user,
    tmp_path: Path,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    prof = _sign_in(browser, live, make_user("prof", "instructor")["Authorization"].split()[1])
    prof.goto(f"{live}/users")
    roster = tmp_path / "cs101.csv"
    roster.write_text("name,email,section\nann,ann@example.edu,A\nbob,bob@example.edu,B\n")
    prof.set_input_files("input[name=roster_file]", str(roster))
    prof.click("#import")
    prof.wait_for_selector("#imported")
    assert "2 new, 0 updated, 0 unchanged" in prof.inner_text("#imported")
    link = prof.inner_text("code.invite[data-user=ann]")
    assert link.startswith(f"{live}/invite/")
    assert prof.inner_text("code.invite[data-user=bob]") != link
    prof.screenshot(path=str(SHOTS / "roster.png"), full_page=False)
    assert "invited" in prof.inner_text("#users tr[data-user=ann]")

    _store_history("ann")
    ann = browser.new_context(viewport={"width": 1200, "height": 1000}).new_page()
    ann.goto(link)
    assert "Welcome, ann" in ann.inner_text("h1")
    ann.fill("#password", PASSWORD)
    ann.fill("#confirm", PASSWORD + "!")
    ann.click("button[type=submit]")
    assert "differ" in ann.inner_text(".error")
    ann.fill("#password", PASSWORD)
    ann.fill("#confirm", PASSWORD)
    ann.click("button[type=submit]")
    ann.wait_for_url(f"{live}/")
    assert "Hello, ann" in ann.inner_text("h1") and "section A" in ann.inner_text("h1")
    card = ann.locator("section[data-checkpoint=c3a-softmax]")
    text = card.inner_text()
    assert "level 3" in text and "Next step" in text
    assert "Level 4 comes from an instructor's approval" in text  # its grading's own words
    assert card.locator("figure.climb svg").count() == 1
    ann.locator("section[data-checkpoint=c3a-softmax]").scroll_into_view_if_needed()
    card.screenshot(path=str(SHOTS / "home.png"))
    # signed out, the link is spent; name (or email) and password sign her in
    ann.click("text=Sign out")
    ann.goto(link)
    assert "used already" in ann.inner_text(".error")
    ann.goto(f"{live}/signin")
    ann.fill("#login", "ann@example.edu")
    ann.fill("#password", PASSWORD)
    ann.click("button[type=submit]")
    ann.wait_for_url(f"{live}/")
    # a token for the CLI, from her own page, shown once
    ann.goto(f"{live}/account")
    ann.fill("#token-name", "laptop")
    ann.click("text=Make a token")
    token = ann.inner_text("[data-token]").strip()
    assert len(token) > 30 and "laptop" in ann.inner_text("#tokens")
    ann.goto(f"{live}/account")
    assert token not in ann.content()  # shown only the once


def test_a_reset_is_asked_first_and_cancelling_changes_nothing(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:
    """Issue 31: Reset cannot be undone (the student's password, tokens and sessions end), so
    the accounts page asks first; Cancel leaves the account as it was."""
    import httpx

    ann_token = make_user("ann")["Authorization"].split()[1]
    prof = _sign_in(browser, live, make_user("prof", "instructor")["Authorization"].split()[1])
    prof.goto(f"{live}/users")
    prof.click("form[action='/users/ann/reset'] button")
    prof.wait_for_selector("#confirm")
    assert "Reset ann?" in prof.inner_text("h1")
    assert "cannot be undone" in prof.inner_text("#confirm")
    prof.click("#confirm-no")
    prof.wait_for_url(f"{live}/users")
    me = httpx.get(f"{live}/api/users/me", headers={"Authorization": f"Bearer {ann_token}"})
    assert me.status_code == 200  # nothing was revoked
    prof.click("form[action='/users/ann/reset'] button")
    prof.click("#confirm-yes")
    prof.wait_for_selector("#reset")
    assert prof.inner_text("code.invite[data-user=ann]").startswith(f"{live}/invite/")
    me = httpx.get(f"{live}/api/users/me", headers={"Authorization": f"Bearer {ann_token}"})
    assert me.status_code == 401

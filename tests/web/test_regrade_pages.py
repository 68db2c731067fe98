"""Regrades and overrides in a real browser (Chromium) against the real service (PostgreSQL,
Redis, uvicorn, a precheck worker): an instructor regrades a checkpoint after a new version and
follows the progress live, then sees both results of a submission; an override is shown with
its note, author and time on the submission page and the board, and the student sees the same.
Screenshots land in docs/screenshots/ for the README."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from app.checkpoints import service as checkpoints
from app.settings import get_settings
from tests.web.test_pages import SHOTS, _sign_in, browser, live, pytestmark  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"
NOTE = "the buffer bug is in the starter we gave out"


def _install() -> Path:
    toml = (VA / "checkpoint.toml").read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    files = {
        "checkpoint.toml": toml,
        "problem.py": (VA / "problem.py").read_text(),
        "reference.py": (VA / "reference.py").read_text(),
    }
    for p in sorted((VA / "solutions" / "wrong").glob("*.py")):
        files[f"solutions/wrong/{p.name}"] = p.read_text()
    home = get_settings().home / "checkpoints"
    home.mkdir(parents=True, exist_ok=True)
    return checkpoints.write_folder(home, "lab-add", files)


def _wait(pred: Callable[[], bool], what: str, timeout: float = 180) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _graded(url: str, token: str, source: Path) -> int:
    h = {"Authorization": f"Bearer {token}"}
    body = {"checkpoint": "lab-add", "source": source.read_text()}
    sid = int(httpx.post(f"{url}/api/submissions", headers=h, json=body).json()["id"])
    done = lambda: httpx.get(f"{url}/api/submissions/{sid}", headers=h).json()["status"] == "done"
    _wait(done, f"submission {sid}")
    return sid


def test_an_instructor_regrades_a_new_version_and_an_override_is_shown_everywhere(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    tokens = {
        n: make_user(n, r)["Authorization"].split()[1]
        for n, r in (("ann", "student"), ("bob", "student"), ("prof", "instructor"))
    }
    folder = _install()
    good = _graded(live, tokens["ann"], VA / "reference.py")
    _graded(live, tokens["bob"], VA / "solutions" / "wrong" / "unwritten_buffer.py")
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text() + "\n# version 2: a clearer statement\n")

    prof = _sign_in(browser, live, tokens["prof"])
    prof.goto(f"{live}/leaderboard/lab-add")
    prof.click("text=Regrade all of lab-add")
    prof.wait_for_selector("#confirm")  # asked first: how many, which version (issue 31)
    asked = prof.inner_text("#confirm")
    assert "2 graded submissions of lab-add will be graded again" in asked, asked
    assert "carried" in asked
    prof.click("#confirm-yes")
    prof.wait_for_url(f"{live}/regrades/*")
    assert "of 2 regraded" in prof.inner_text(".progress")
    prof.wait_for_selector("#regrade[data-status=done]", timeout=180_000)  # live, no reload
    assert prof.inner_text(".progress") == "2 of 2 regraded"
    prof.screenshot(path=str(SHOTS / "regrade.png"), full_page=False)

    prof.goto(f"{live}/submissions/{good}")
    rows = prof.locator("#results tr")
    assert rows.count() == 3  # a header and both results
    newest, first = rows.nth(1).inner_text(), rows.nth(2).inner_text()
    assert "regrade 1 · current" in newest and "first grading" in first
    v_new, v_old = (rows.nth(i).locator("code").inner_text() for i in (1, 2))
    assert v_new != v_old and v_new in prof.inner_text(".version")

    prof.select_option("select[name=level]", "1")
    prof.fill("input[name=note]", NOTE)
    prof.click("form[action$=override] button")
    prof.wait_for_url(f"{live}/submissions/{good}")
    shown = prof.inner_text("#override")
    assert shown.startswith("Level 1, set by prof on ") and NOTE in shown
    assert "The grader gave this result level 2" in shown and "UTC" in shown
    when = shown.split(" on ", 1)[1].split(" UTC")[0]
    assert prof.inner_text(".level") == "level 1"
    prof.screenshot(path=str(SHOTS / "override.png"), full_page=False)
    prof.goto(f"{live}/leaderboard/lab-add")
    row = prof.locator("tr", has_text="ann").first.inner_text()
    assert f"set by prof, {when} UTC (graded 2): {NOTE}" in row
    assert "1 of 1" not in row

    ann = _sign_in(browser, live, tokens["ann"])
    ann.goto(f"{live}/submissions/{good}")
    assert ann.inner_text("#override") == shown
    assert ann.inner_text(".level") == "level 1"
    assert ann.locator("#results tr").count() == 3

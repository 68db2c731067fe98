"""Regrades keep the instructor's word, against PostgreSQL and Redis (the regrade's precheck
run here, in this process, as a precheck worker runs it, in the real sandbox): an override
carries to the submission's new result unless the instructor asks to clear it; a regrade with
the version that already graded every submission is refused unless forced; the regrade's page
says each submission's level before → after and which overrides were carried."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.service.conftest import signin_form, stored

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "reference_kernels" / "c3a_softmax" / "reference.py").read_text()
CP = "c3a-softmax"
GRADED = {"checkpoint": CP, "device": "cpu", "verdict": "correct", "level": 2}
pytestmark = pytest.mark.slow


def _regrade(client: TestClient, prof: dict[str, str], **body: object) -> dict[str, object]:
    from worker.tasks import precheck

    r = client.post("/api/regrades", headers=prof, json=body)
    assert r.status_code == 202, r.text
    for sid in [body["submission"]] if "submission" in body else []:
        precheck(int(sid))  # type: ignore[call-overload]
    return dict(client.get(str(r.json()["url"]), headers=prof).json())


def _export_level(client: TestClient, prof: dict[str, str], student: str) -> str:
    rows = csv.DictReader(io.StringIO(client.get(f"/api/export/{CP}.csv", headers=prof).text))
    return next(r["best_level"] for r in rows if r["student"] == student)


def test_an_override_carries_to_the_new_result_unless_cleared(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    prof = make_user("prof", "instructor")
    make_user("ann")
    sid = stored("ann", {**GRADED, "messages": ["Level 2"]}, source=SOURCE)
    o = client.post(
        f"/api/submissions/{sid}/override", headers=prof, json={"level": 1, "note": "copied"}
    )
    assert o.status_code == 200, o.text
    done = _regrade(client, prof, submission=sid)
    assert done["status"] == "done"
    sub = client.get(f"/api/submissions/{sid}", headers=prof).json()
    assert sub["level"] == 1 and sub["graded_level"] == 2, sub  # graded again: 2; in force: 1
    assert sub["override"]["note"] == "copied" and sub["override"]["by"] == "prof"
    assert _export_level(client, prof, "ann") == "1"
    board = client.get(f"/api/leaderboard/{CP}", headers=prof).json()["boards"]
    assert [e["level"] for b in board.values() for e in b] == [1]
    history = client.get(f"/api/submissions/{sid}/results", headers=prof).json()
    assert [h["level"] for h in history] == [1, 1]  # each result with its override
    # the same version again: refused, saying why and how to force it
    again = client.post("/api/regrades", headers=prof, json={"submission": sid})
    assert again.status_code == 409, again.text
    assert "already graded" in again.json()["error"] and "force" in again.json()["error"]
    everyone = client.post("/api/regrades", headers=prof, json={"checkpoint": CP})
    assert everyone.status_code == 409 and "force" in everyone.json()["error"]
    # forced, clearing the overrides: the grader's level is in force again
    cleared = _regrade(client, prof, submission=sid, force=True, clear_overrides=True)
    assert cleared["status"] == "done"
    sub = client.get(f"/api/submissions/{sid}", headers=prof).json()
    assert sub["level"] == 2 and sub["override"] is None
    assert _export_level(client, prof, "ann") == "2"
    assert len(client.get(f"/api/submissions/{sid}/results", headers=prof).json()) == 3


def test_the_regrade_page_says_before_after_and_what_was_carried(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    prof = make_user("prof", "instructor")
    make_user("ann")
    make_user("bob")
    kept = stored("ann", {**GRADED, "messages": ["Level 2"]}, source=SOURCE)
    plain = stored("bob", {**GRADED, "level": 1, "messages": ["Level 1"]}, source=SOURCE)
    client.post(f"/api/submissions/{kept}/override", headers=prof, json={"level": 0, "note": "x"})
    rid = _regrade(client, prof, submission=kept)["id"]
    _regrade(client, prof, submission=plain)
    token = prof["Authorization"].split()[1]
    signed_in = client.post("/signin", data=signin_form(client, {"token": token}))
    assert signed_in.status_code in (200, 303)
    html = client.get(f"/regrades/{rid}").text
    row = re.search(rf'<tr data-submission="{kept}">(.*?)</tr>', html, re.S)
    assert row, html
    assert "0 → 0" in row.group(1) and "x” carried" not in row.group(1)
    assert re.search(r'class="carried">level 0 by prof carried: “x”<', row.group(1)), row.group(1)
    other = client.get(f"/regrades/{rid + 1}").text
    row = re.search(rf'<tr data-submission="{plain}">(.*?)</tr>', other, re.S)
    assert row and "1 → 2" in row.group(1) and '<td class="carried"></td>' in row.group(1), other


def test_regrade_all_is_asked_first_and_queues_nothing_until_confirmed(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    """Issue 31: a whole checkpoint regraded by one click moved a class off the board; the page
    now asks first (how many, which version, what happens to overrides) and only the
    confirmation's own form starts it."""
    prof = make_user("prof", "instructor")
    make_user("ann")
    make_user("bob")
    stored("ann", {**GRADED, "messages": ["Level 2"]}, source=SOURCE)
    stored("bob", {**GRADED, "messages": ["Level 2"]}, source=SOURCE)
    token = prof["Authorization"].split()[1]
    client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    html = client.get(f"/leaderboard/{CP}").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', html)
    assert csrf is not None
    form = {"csrf": csrf.group(1), "clear_overrides": "yes", "back": f"/leaderboard/{CP}"}
    asked = client.post(f"/checkpoints/{CP}/regrade", data=form, follow_redirects=False)
    assert asked.status_code == 200, asked.text
    assert "2 graded submissions of c3a-softmax will be graded again" in asked.text
    assert "cleared" in asked.text and f'href="/leaderboard/{CP}" id="confirm-no"' in asked.text
    assert 'name="clear_overrides" value="yes"' in asked.text  # the choice goes with the yes
    assert client.get("/api/regrades", headers=prof).json() == []  # nothing started
    done = client.post(
        f"/checkpoints/{CP}/regrade", data={**form, "confirm": "yes"}, follow_redirects=False
    )
    assert done.status_code == 303 and done.headers["location"].startswith("/regrades/")
    [started] = client.get("/api/regrades", headers=prof).json()
    assert started["total"] == 2 and started["carry_overrides"] is False

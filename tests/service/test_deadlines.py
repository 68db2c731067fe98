"""Deadlines on PostgreSQL and Redis, through the API: an instructor sets, moves and clears a
checkpoint's deadline; the only admission refuses before opening (409) and past the deadline
per policy (403), or admits and marks late; moving the deadline marks the earlier
submissions again; hidden cases are withheld from a student until the due time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.service.conftest import signin_form, stored

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference_kernels" / "c3a_softmax" / "reference.py").read_text()
CP = "c3a-softmax"


def _at(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat()


def _count() -> int:
    from app.db import sessions
    from app.models import Submission

    with sessions()() as s:
        return int(s.scalar(select(func.count()).select_from(Submission)) or 0)


def _deadline(client: TestClient, prof: dict[str, str], **body: Any) -> Any:
    return client.put(f"/api/checkpoints/{CP}/deadline", headers=prof, json=body)


def _submit(client: TestClient, who: dict[str, str]) -> Any:
    return client.post(
        "/api/submissions", headers=who, json={"checkpoint": CP, "source": REFERENCE}
    )


def test_an_instructor_sets_a_deadline_shown_in_its_zone(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    r = client.get(f"/api/checkpoints/{CP}/deadline", headers=ann)
    assert r.status_code == 200 and r.json()["source"] == "none" and r.json()["due"] is None
    r = _deadline(
        client, prof, due="2026-12-08T23:59:00", policy="accept", timezone="Europe/Berlin"
    )
    assert r.status_code == 200, r.text
    body = client.get(f"/api/checkpoints/{CP}/deadline", headers=ann).json()
    assert body["source"] == "instructor" and body["policy"] == "accept"
    assert datetime.fromisoformat(body["due"]) == datetime(2026, 12, 8, 22, 59, tzinfo=UTC)
    assert body["shown"]["due"] == "2026-12-08 23:59 CET (Europe/Berlin)"
    # a student may not set one; bad ones are a clear 400; an unknown checkpoint a 404
    assert _deadline(client, ann, due=_at(days=1)).status_code == 403
    bad = _deadline(client, prof, due=_at(days=1), timezone="Mars/Olympus")
    assert bad.status_code == 400 and "unknown time zone" in bad.json()["error"]
    bad = _deadline(client, prof, due=_at(days=1), late_until=_at(days=2))
    assert bad.status_code == 400 and "policy = 'accept'" in bad.json()["error"]
    r = client.put("/api/checkpoints/nope/deadline", headers=prof, json={"due": _at(days=1)})
    assert r.status_code == 404 and list(r.json()) == ["error"]
    # cleared: back to the definition's (none)
    r = client.delete(f"/api/checkpoints/{CP}/deadline", headers=prof)
    assert r.status_code == 200 and r.json()["source"] == "none"


def test_admission_refuses_or_marks_late_per_policy(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    assert _deadline(client, prof, opens=_at(hours=1), due=_at(days=1)).status_code == 200
    r = _submit(client, ann)
    assert r.status_code == 409 and "opens at" in r.json()["error"], r.text
    assert _deadline(client, prof, due=_at(hours=1)).status_code == 200
    r = _submit(client, ann)
    assert r.status_code == 201 and r.json()["late"] is False
    assert _deadline(client, prof, due=_at(minutes=-5)).status_code == 200  # refuse
    r = _submit(client, ann)
    assert r.status_code == 403 and "it was due at" in r.json()["error"]
    assert _count() == 1
    assert (
        _deadline(
            client, prof, due=_at(minutes=-5), policy="accept", late_until=_at(hours=1)
        ).status_code
        == 200
    )
    r = _submit(client, ann)
    assert r.status_code == 201 and r.json()["late"] is True
    assert (
        _deadline(
            client, prof, due=_at(hours=-2), policy="accept", late_until=_at(hours=-1)
        ).status_code
        == 200
    )
    r = _submit(client, ann)
    assert r.status_code == 403 and "late window closed" in r.json()["error"]
    assert _count() == 2


def test_moving_the_deadline_marks_the_submissions_again(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    sid = _submit(client, ann).json()["id"]

    def late() -> bool:
        return bool(client.get(f"/api/submissions/{sid}", headers=ann).json()["late"])

    assert not late()
    assert _deadline(client, prof, due=_at(minutes=-5), policy="accept").status_code == 200
    assert late()  # it came after the new due time
    assert _deadline(client, prof, due=_at(days=1)).status_code == 200
    assert not late()
    assert _deadline(client, prof, due=_at(minutes=-5), policy="accept").status_code == 200
    assert client.delete(f"/api/checkpoints/{CP}/deadline", headers=prof).status_code == 200
    assert not late()


def _hidden_result() -> dict[str, Any]:
    return {
        "checkpoint": CP,
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


def test_hidden_cases_are_withheld_from_a_student_until_the_due_time(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    sid = stored("ann", _hidden_result(), CP)

    def seen(who: dict[str, str]) -> str:
        r = client.get(f"/api/submissions/{sid}", headers=who)
        assert r.status_code == 200
        return str(r.json()["result"])

    assert "secret-wide" not in seen(ann) and "hidden-1" in seen(ann)  # no deadline: withheld
    assert "secret-wide" in seen(prof)  # staff always see them
    assert _deadline(client, prof, due=_at(days=1)).status_code == 200
    assert "secret-wide" not in seen(ann) and "3000" not in seen(ann)
    assert _deadline(client, prof, due=_at(minutes=-1)).status_code == 200
    assert "secret-wide" in seen(ann)  # after the due time, no regrade needed
    from app.db import sessions
    from app.models import Submission

    with sessions()() as s:  # the stored result kept them all along
        sub = s.get(Submission, sid)
        assert sub is not None and "secret-wide" in str(sub.result)


def test_the_home_pages_next_step_withholds_hidden_cases_until_the_due_time(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    stored("ann", _hidden_result(), CP)
    token = ann["Authorization"].split()[1]
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    assert _deadline(client, prof, due=_at(days=1), policy="accept").status_code == 200
    page = client.get("/").text
    assert "secret-wide" not in page and "shown after the due time" in page
    assert "late work accepted" in page
    assert _deadline(client, prof, due=_at(minutes=-1)).status_code == 200
    assert "secret-wide" in client.get("/").text


def test_the_definitions_deadline_until_an_instructor_overrides_it(
    client: TestClient, make_user, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from app.checkpoints import service
    from app.settings import get_settings
    from grader import checkpoints

    folder = tmp_path / "lab_add"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    past = (datetime.now(UTC) - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    text = toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    toml.write_text(text + f'\n[deadline]\ndue = {past}\ntimezone = "Asia/Tokyo"\n')
    service.install(get_settings(), checkpoints.load(folder))
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    source = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
    body = {"checkpoint": "lab-add", "source": source}
    d = client.get("/api/checkpoints/lab-add/deadline", headers=ann).json()
    assert d["source"] == "definition" and d["policy"] == "refuse"
    assert d["shown"]["due"].endswith("JST (Asia/Tokyo)")
    r = client.post("/api/submissions", headers=ann, json=body)
    assert r.status_code == 403 and "it was due at" in r.json()["error"]
    path = "/api/checkpoints/lab-add/deadline"
    assert client.put(path, headers=prof, json={"due": _at(days=1)}).status_code == 200
    r = client.post("/api/submissions", headers=ann, json=body)
    assert r.status_code == 201 and r.json()["late"] is False
    cleared = client.delete(path, headers=prof).json()
    assert cleared["source"] == "definition"  # back to the file's: the submission is late now
    assert client.get(f"/api/submissions/{r.json()['id']}", headers=ann).json()["late"] is True
    assert client.post("/api/submissions", headers=ann, json=body).status_code == 403


def test_the_deadlines_page_refuses_a_bad_deadline_with_its_reason(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    import re

    prof = make_user("prof", "instructor")
    token = prof["Authorization"].split()[1]
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    page = client.get("/deadlines")
    assert page.status_code == 200 and 'data-checkpoint="c3a-softmax"' in page.text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf
    form = {"csrf": csrf.group(1), "due": "2026-12-08T23:59", "timezone": "Mars/Olympus"}
    r = client.post("/deadlines/c3a-softmax", data=form, follow_redirects=False)
    assert r.status_code == 400 and "unknown time zone" in r.text
    assert client.get(f"/api/checkpoints/{CP}/deadline", headers=prof).json()["source"] == "none"
    form |= {"timezone": "Europe/Berlin", "policy": "accept"}
    r = client.post("/deadlines/c3a-softmax", data=form, follow_redirects=False)
    assert r.status_code == 303
    assert "2026-12-08 23:59 CET (Europe/Berlin)" in client.get("/deadlines").text
    r = client.post("/deadlines/c3a-nope", data=form, follow_redirects=False)
    assert r.status_code == 404


def test_the_leaderboard_picker_redirects_within_the_board(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    token = prof["Authorization"].split()[1]
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    r = client.get(
        "/leaderboard",
        params={"checkpoint": "c3a-rmsnorm", "section": "A", "late": "include"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert r.headers["location"] == "/leaderboard/c3a-rmsnorm?section=A&late=include"
    r = client.get(
        "/leaderboard", params={"checkpoint": "/evil.example/x?y"}, follow_redirects=False
    )
    assert r.headers["location"] == "/leaderboard/%2Fevil.example%2Fx%3Fy"
    assert client.get(r.headers["location"]).status_code == 404


def test_the_submit_page_shows_the_deadline_and_whether_work_is_late(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    token = ann["Authorization"].split()[1]
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    assert 'class="deadline"' not in client.get(f"/submit?checkpoint={CP}").text
    due = datetime.now(UTC) + timedelta(days=1)
    body = {"due": due.isoformat(), "policy": "accept", "timezone": "Asia/Tokyo"}
    assert _deadline(client, prof, **body).status_code == 200
    page = client.get(f"/submit?checkpoint={CP}").text
    shown = due.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%d %H:%M JST (Asia/Tokyo)")
    assert 'data-admission="on_time"' in page and shown in page and "Past due" not in page
    assert _deadline(client, prof, **(body | {"due": _at(minutes=-1)})).status_code == 200
    page = client.get(f"/submit?checkpoint={CP}").text
    assert 'data-admission="late"' in page and "a submission now is marked late" in page

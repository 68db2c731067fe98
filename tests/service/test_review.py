"""Instructor overrides (who, when, why, kept) and level 4 through approved evidence."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import Stage, Status, Submission, User


def _graded(user: str, level: int) -> int:
    with transaction() as s:
        u = s.query(User).filter_by(name=user).one()
        sub = Submission(
            user_id=u.id,
            checkpoint="c3a-softmax",
            source="x",
            status=Status.DONE,
            stage=Stage.DONE,
            level=level,
            verdict="correct",
            speedup=1.5,
            gpu_model="h200",
        )
        s.add(sub)
        s.flush()
        return sub.id


def test_level_4_needs_level_3_and_an_instructors_approval(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, bob, prof = make_user("ann"), make_user("bob"), make_user("prof", "instructor")
    low, high = _graded("ann", 2), _graded("ann", 3)
    url = {"url": "https://github.com/linkedin/Liger-Kernel/pull/1"}
    assert client.post(f"/api/submissions/{low}/evidence", headers=ann, json=url).status_code == 409
    assert (
        client.post(f"/api/submissions/{high}/evidence", headers=bob, json=url).status_code == 404
    )
    r = client.post(f"/api/submissions/{high}/evidence", headers=ann, json=url)
    assert r.status_code == 201 and r.json()["status"] == "pending"
    ev = r.json()["id"]
    denied = client.post(
        f"/api/submissions/evidence/{ev}/decision", headers=ann, json={"approve": True}
    )
    assert denied.status_code == 403
    ok = client.post(
        f"/api/submissions/evidence/{ev}/decision",
        headers=prof,
        json={"approve": True, "note": "merged"},
    )
    assert ok.json()["status"] == "approved"
    assert client.get(f"/api/submissions/{high}", headers=ann).json()["level"] == 4
    again = client.post(
        f"/api/submissions/evidence/{ev}/decision", headers=prof, json={"approve": False}
    )
    assert again.status_code == 409
    history = client.get(f"/api/submissions/{high}/overrides", headers=ann).json()
    assert [(h["old_level"], h["new_level"], h["by"]) for h in history] == [(3, 4, "prof")]


def test_overrides_keep_who_when_and_why(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, prof = make_user("ann"), make_user("prof", "instructor")
    sid = _graded("ann", 2)
    assert (
        client.post(
            f"/api/submissions/{sid}/override", headers=ann, json={"level": 3, "note": "please"}
        ).status_code
        == 403
    )
    empty = client.post(
        f"/api/submissions/{sid}/override", headers=prof, json={"level": 1, "note": ""}
    )
    assert empty.status_code == 422 and list(empty.json()) == ["error"]
    r = client.post(
        f"/api/submissions/{sid}/override",
        headers=prof,
        json={"level": 1, "note": "copied from a classmate"},
    )
    assert r.status_code == 200 and r.json()["level"] == 1
    [entry] = r.json()["overrides"]
    assert entry["by"] == "prof" and entry["old_level"] == 2 and "classmate" in entry["note"]
    assert entry["at"]

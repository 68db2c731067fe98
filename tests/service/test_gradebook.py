"""The gradebook, on PostgreSQL: one CSV for a course (and its API) with every rostered student,
their section and email, one column per checkpoint with the level in force and its marks
(override, late, late only, no submission), ISO times with their zone and no microseconds,
filtered by section; and the per-checkpoint CSV, which now lists rostered students without a
submission and late-only ones, and marks overrides."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import Stage, Status, Submission, User
from tests.service.test_cli_course import server  # noqa: F401 (a fixture)

AT = datetime(2026, 12, 1, 20, 30, 5, 123456, tzinfo=UTC)


def _done(user: str, cp: str, level: int, late: bool = False) -> int:
    with transaction() as s:
        u = s.query(User).filter_by(name=user).one()
        sub = Submission(
            user_id=u.id,
            checkpoint=cp,
            source="x",
            status=Status.DONE,
            stage=Stage.DONE,
            level=level,
            verdict="correct" if level >= 2 else "wrong_answer",
            late=late,
            created_at=AT,
        )
        s.add(sub)
        s.flush()
        return sub.id


def _course(make_user) -> dict[str, str]:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for name in ("ann", "bob", "cy", "dee"):
        make_user(name)
    with transaction() as s:
        for name, section, email in (
            ("ann", "A", "ann@uni.example"),
            ("bob", "B", None),
            ("cy", "A", "cy@uni.example"),
            ("dee", "B", "dee@uni.example"),
        ):
            u = s.query(User).filter_by(name=name).one()
            u.section, u.email = section, email
    return prof  # type: ignore[no-any-return]


def _rows(text: str) -> dict[str, dict[str, str]]:
    return {r["student"]: r for r in csv.DictReader(io.StringIO(text))}


def test_the_course_gradebook_has_every_student_and_checkpoint(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    prof = _course(make_user)
    overridden = _done("ann", "c3a-softmax", 2)
    client.post(
        f"/api/submissions/{overridden}/override",
        headers=prof,
        json={"level": 0, "note": "copied"},
    ).raise_for_status()
    _done("ann", "c3a-vector-add", 3)
    _done("bob", "c3a-softmax", 3, late=True)  # late only
    _done("cy", "c3a-softmax", 1)
    _done("cy", "c3a-softmax", 2, late=True)
    r = client.get("/api/export.csv", headers=prof)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv"), r.text
    header = next(csv.reader(io.StringIO(r.text)))
    assert header[:3] == ["student", "email", "section"]
    assert "c3a-softmax" in header and "c3a-softmax marks" in header
    assert "c3a-vector-add" in header and header[-1] == "last_submission"
    rows = _rows(r.text)
    assert list(rows) == ["ann", "bob", "cy", "dee"]  # every rostered student, no staff
    assert (rows["ann"]["email"], rows["ann"]["section"]) == ("ann@uni.example", "A")
    assert rows["ann"]["c3a-softmax"] == "0" and "override" in rows["ann"]["c3a-softmax marks"]
    assert rows["ann"]["c3a-vector-add"] == "3" and rows["ann"]["c3a-vector-add marks"] == ""
    assert rows["bob"]["c3a-softmax"] == "" and rows["bob"]["c3a-softmax marks"] == "late only"
    assert rows["cy"]["c3a-softmax"] == "1" and "late" in rows["cy"]["c3a-softmax marks"]
    assert rows["dee"]["c3a-softmax"] == "" and rows["dee"]["c3a-softmax marks"] == "none"
    assert rows["ann"]["last_submission"] == "2026-12-01T20:30:05+00:00"
    assert rows["dee"]["last_submission"] == ""
    late = _rows(client.get("/api/export.csv?late=include", headers=prof).text)
    assert late["cy"]["c3a-softmax"] == "2" and late["bob"]["c3a-softmax"] == "3"
    assert "late" in late["bob"]["c3a-softmax marks"]
    one = _rows(client.get("/api/export.csv?section=B", headers=prof).text)
    assert list(one) == ["bob", "dee"]
    ann = make_user("zed")
    assert client.get("/api/export.csv", headers=ann).status_code == 403


def test_the_per_checkpoint_csv_lists_the_roster_and_marks(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    prof = _course(make_user)
    sid = _done("ann", "c3a-softmax", 2)
    client.post(
        f"/api/submissions/{sid}/override", headers=prof, json={"level": 1, "note": "late-ish"}
    ).raise_for_status()
    _done("bob", "c3a-softmax", 3, late=True)
    rows = _rows(client.get("/api/export/c3a-softmax.csv", headers=prof).text)
    assert list(rows) == ["ann", "bob", "cy", "dee"]
    assert rows["ann"]["best_level"] == "1" and "override" in rows["ann"]["marks"]
    assert rows["ann"]["email"] == "ann@uni.example" and rows["ann"]["section"] == "A"
    assert rows["ann"]["last_submission"] == "2026-12-01T20:30:05+00:00"
    assert rows["bob"]["best_level"] == "" and rows["bob"]["marks"] == "late only"
    assert rows["cy"]["submissions"] == "0" and rows["cy"]["marks"] == "none"
    section = _rows(client.get("/api/export/c3a-softmax.csv?section=A", headers=prof).text)
    assert list(section) == ["ann", "cy"]


def test_the_cli_exports_the_gradebook_and_one_section(server: str, make_user) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tests.service.test_cli_course import kgrade

    prof = _course(make_user)["Authorization"].split()[1]
    _done("ann", "c3a-softmax", 2)
    whole = kgrade(server, prof, "export")
    assert whole.returncode == 0, whole.stderr
    assert list(_rows(whole.stdout)) == ["ann", "bob", "cy", "dee"]
    one = kgrade(server, prof, "export", "c3a-softmax", "--section", "A")
    assert (
        list(_rows(one.stdout)) == ["ann", "cy"] and _rows(one.stdout)["ann"]["best_level"] == "2"
    )

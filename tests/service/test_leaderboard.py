"""Ranking and export: best per student per GPU model, by level then speedup."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import Stage, Status, Submission, User


def _done(user: str, level: int, speedup: float | None, gpu: str | None) -> None:
    with transaction() as s:
        u = s.query(User).filter_by(name=user).one()
        s.add(
            Submission(
                user_id=u.id,
                checkpoint="c3a-softmax",
                source="x",
                status=Status.DONE,
                stage=Stage.DONE,
                level=level,
                speedup=speedup,
                gpu_model=gpu,
                verdict="correct" if level >= 2 else "wrong_answer",
            )
        )


def test_ranked_by_level_then_speedup_per_gpu_model(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for name in ("ann", "bob", "cy"):
        make_user(name)
    _done("ann", 3, 1.4, "h200")
    _done("ann", 2, 1.9, "h200")  # faster but level 2: not her best
    _done("bob", 3, 1.6, "h200")
    _done("cy", 1, None, None)
    _done("cy", 3, 2.5, "rtx5090")  # another GPU model: another board
    boards = client.get("/api/leaderboard/c3a-softmax", headers=prof).json()["boards"]
    assert [(e["student"], e["level"], e["speedup"]) for e in boards["h200"]] == [
        ("bob", 3, 1.6),
        ("ann", 3, 1.4),
    ]
    assert [e["rank"] for e in boards["h200"]] == [1, 2]
    assert boards["h200"][1]["submissions"] == 2
    assert [e["student"] for e in boards["rtx5090"]] == ["cy"]
    assert [e["student"] for e in boards["cpu"]] == ["cy"]


def test_students_cannot_read_the_leaderboard_or_export(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    assert client.get("/api/leaderboard/c3a-softmax", headers=ann).status_code == 403
    assert client.get("/api/export/c3a-softmax.csv", headers=ann).status_code == 403


def test_export_has_one_row_per_student(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    make_user("ann")
    make_user("bob")
    _done("ann", 3, 1.4, "h200")
    _done("ann", 1, None, None)
    _done("bob", 2, None, None)
    r = client.get("/api/export/c3a-softmax.csv", headers=prof)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [(x["student"], x["best_level"], x["best_speedup"], x["submissions"]) for x in rows] == [
        ("ann", "3", "1.4000", "2"),
        ("bob", "2", "", "1"),
    ]

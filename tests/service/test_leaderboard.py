"""Ranking and export: best per student per GPU model, by level then speedup."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import Stage, Status, Submission, User


def _done(
    user: str, level: int, speedup: float | None, gpu: str | None, late: bool = False
) -> None:
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
                late=late,
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


def _sections(**of: str) -> None:
    with transaction() as s:
        for name, section in of.items():
            s.query(User).filter_by(name=name).one().section = section


def _board(client: TestClient, who: dict[str, str], query: str = "") -> dict[str, list[tuple]]:  # type: ignore[type-arg]
    r = client.get(f"/api/leaderboard/c3a-softmax{query}", headers=who)
    assert r.status_code == 200, r.text
    return {
        gpu: [(e["student"], e["level"], e["speedup"]) for e in entries]
        for gpu, entries in r.json()["boards"].items()
    }


def test_boards_rank_on_time_results_unless_late_work_is_included(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for name in ("ann", "bob", "cy"):
        make_user(name)
    _done("ann", 3, 1.4, "h200")
    _done("ann", 3, 2.2, "h200", late=True)  # faster, but late
    _done("bob", 3, 1.6, "h200")
    _done("cy", 3, 3.0, "h200", late=True)  # only late work
    assert _board(client, prof) == {"h200": [("bob", 3, 1.6), ("ann", 3, 1.4)]}
    assert _board(client, prof, "?late=include") == {
        "h200": [("cy", 3, 3.0), ("ann", 3, 2.2), ("bob", 3, 1.6)]
    }
    r = client.get("/api/export/c3a-softmax.csv", headers=prof)
    rows = {x["student"]: x for x in csv.DictReader(io.StringIO(r.text))}
    assert (rows["ann"]["best_speedup"], rows["ann"]["late_submissions"]) == ("1.4000", "1")
    assert rows["cy"]["best_level"] == "" and rows["cy"]["submissions"] == "1"
    r = client.get("/api/export/c3a-softmax.csv?late=include", headers=prof)
    rows = {x["student"]: x for x in csv.DictReader(io.StringIO(r.text))}
    assert rows["ann"]["best_speedup"] == "2.2000" and rows["cy"]["best_level"] == "3"
    bad = client.get("/api/leaderboard/c3a-softmax?late=maybe", headers=prof)
    assert bad.status_code == 422 and "late" in bad.json()["error"]


def test_boards_filter_by_gpu_model_and_section(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for name in ("ann", "bob", "cy"):
        make_user(name)
    _sections(ann="A", bob="B", cy="A")
    _done("ann", 3, 1.4, "h200")
    _done("bob", 3, 1.6, "h200")
    _done("cy", 3, 2.5, "rtx5090")
    assert _board(client, prof, "?section=A") == {
        "h200": [("ann", 3, 1.4)],
        "rtx5090": [("cy", 3, 2.5)],
    }
    assert _board(client, prof, "?gpu=h200") == {"h200": [("bob", 3, 1.6), ("ann", 3, 1.4)]}
    assert _board(client, prof, "?gpu=h200&section=B") == {"h200": [("bob", 3, 1.6)]}
    assert _board(client, prof, "?section=C") == {}


def test_an_unknown_checkpoint_is_404_for_the_board_and_the_export(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for path in ("/api/leaderboard/c3a-nope", "/api/export/c3a-nope.csv"):
        r = client.get(path, headers=prof)
        assert r.status_code == 404 and "c3a-nope" in r.json()["error"], (path, r.text)
    # a known one with no submissions is an empty board, not a 404
    assert _board(client, prof) == {}


def test_each_row_names_its_section_and_marks_late_work(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    """Issue 31: a board of 500 is read by section, and with late work counted a TA must see
    which rows are late, in the JSON and on the page."""
    import re

    from tests.service.conftest import signin_form

    prof = make_user("prof", "instructor")
    for name in ("ann", "bob"):
        make_user(name)
    _sections(ann="A")
    _done("ann", 3, 2.2, "h200", late=True)
    _done("bob", 3, 1.6, "h200")
    [bob] = client.get("/api/leaderboard/c3a-softmax", headers=prof).json()["boards"]["h200"]
    assert (bob["student"], bob["section"], bob["late"]) == ("bob", None, False)
    with_late = client.get("/api/leaderboard/c3a-softmax?late=include", headers=prof).json()
    ann = with_late["boards"]["h200"][0]
    assert (ann["student"], ann["section"], ann["late"]) == ("ann", "A", True)
    token = prof["Authorization"].split()[1]
    client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    html = client.get("/leaderboard/c3a-softmax?late=include").text
    assert "<th>section</th>" in html
    row = re.search(r"<tr[^>]*><td>1</td><td>ann</td><td>A</td>(.*?)</tr>", html, re.S)
    assert row and 'class="late"' in row.group(0), html
    other = re.search(r"<tr[^>]*><td>2</td><td>bob</td><td></td>(.*?)</tr>", html, re.S)
    assert other and 'class="late"' not in other.group(0)

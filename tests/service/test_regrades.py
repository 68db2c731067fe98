"""Checkpoint versions and regrades against PostgreSQL and Redis: a re-posted checkpoint is a
new version (the very same files: none, said so); the worker records the version that graded
each result; an instructor's regrade goes through the queue (the tasks run here, in this
process, as a precheck worker runs them), with its progress, keeping every earlier result, and
never counting a submission twice on the board."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from app.checkpoints import service as checkpoints
from app.settings import get_settings
from tests.service.conftest import stored

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"
WRONG = VA / "solutions" / "wrong"


def _body(rtol_line: str | None = None) -> dict[str, object]:
    toml = (VA / "checkpoint.toml").read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    if rtol_line is not None:
        toml += f"\n# {rtol_line}\n"
    return {
        "definition": toml,
        "problem": (VA / "problem.py").read_text(),
        "reference": (VA / "reference.py").read_text(),
        "starter": (VA / "starter.py").read_text(),
        "wrong": {p.name: p.read_text() for p in sorted(WRONG.glob("*.py"))},
    }


def _install(body: dict[str, object]) -> Path:
    """The checkpoint as an admin's folder under KGRADE_HOME/checkpoints (how a validated one
    ends up installed)."""
    upload = (
        body["definition"],
        body["problem"],
        body["reference"],
        body["starter"],
        body["wrong"],
    )
    cid, files = checkpoints.files_of(*upload)  # type: ignore[arg-type]
    home = get_settings().home / "checkpoints"
    home.mkdir(parents=True, exist_ok=True)
    return checkpoints.write_folder(home, cid, files)


def _queued() -> int:
    return int(redis.Redis.from_url(str(get_settings().redis_url)).llen("precheck"))


def test_reposting_the_same_files_is_no_new_version_and_other_files_are_one(  # type: ignore[no-untyped-def]
    client: TestClient, make_user
) -> None:
    admin = make_user("root", "admin")
    _install(_body())
    installed = client.get("/api/checkpoints/lab-add", headers=admin).json()["version"]
    assert installed and len(installed) == 64
    same = client.post("/api/checkpoints", headers=admin, json=_body())
    assert same.status_code == 200, same.text
    assert same.json()["unchanged"] is True and same.json()["version"] == installed
    assert "no new version" in same.json()["message"] and _queued() == 0
    other = client.post("/api/checkpoints", headers=admin, json=_body("a new version"))
    assert other.status_code == 202, other.text
    assert other.json()["replaces"] == installed and other.json()["version"] != installed
    # the installed version's files were kept before anything could replace them
    kept = client.get("/api/checkpoints/lab-add/versions", headers=admin).json()
    assert [(v["version"], v["current"]) for v in kept] == [(installed, True)]
    files = client.get(f"/api/checkpoints/lab-add/versions/{installed[:8]}", headers=admin)
    assert files.status_code == 200 and "problem.py" in files.json()["files"]
    missing = client.get("/api/checkpoints/lab-add/versions/abcdef0", headers=admin)
    assert missing.status_code == 404 and list(missing.json()) == ["error"]


def test_opening_and_closing_is_not_a_new_version(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin = make_user("root", "admin")
    _install(_body())
    before = client.get("/api/checkpoints/lab-add", headers=admin).json()["version"]
    closed = client.patch("/api/checkpoints/lab-add", headers=admin, json={"open": False})
    assert closed.json()["open"] is False and closed.json()["version"] == before


def _graded(client: TestClient, headers: dict[str, str], source: Path) -> int:
    from worker.tasks import precheck

    r = client.post(
        "/api/submissions",
        headers=headers,
        json={"checkpoint": "lab-add", "source": source.read_text()},
    )
    assert r.status_code == 201, r.text
    precheck(r.json()["id"])  # what a precheck worker does with the message
    return int(r.json()["id"])


@pytest.mark.slow
def test_a_regrade_after_a_new_version_keeps_both_results_with_progress(  # type: ignore[no-untyped-def]
    client: TestClient, make_user
) -> None:
    from worker.tasks import precheck

    ann, bob, prof = make_user("ann"), make_user("bob"), make_user("prof", "instructor")
    folder = _install(_body())
    good = _graded(client, ann, VA / "reference.py")
    bad = _graded(client, bob, WRONG / "unwritten_buffer.py")
    first = client.get(f"/api/submissions/{good}", headers=ann).json()
    v1 = client.get("/api/checkpoints/lab-add", headers=prof).json()["version"]
    assert first["status"] == "done" and first["checkpoint_version"] == v1
    assert first["results"] == 1
    board = client.get("/api/leaderboard/lab-add", headers=prof).json()["boards"]
    assert sorted(e["student"] for b in board.values() for e in b) == ["ann", "bob"]

    (folder / "checkpoint.toml").write_text(
        (folder / "checkpoint.toml").read_text() + "\n# the second version\n"
    )
    v2 = client.get("/api/checkpoints/lab-add", headers=prof).json()["version"]
    assert v2 != v1
    assert (
        client.post("/api/regrades", headers=ann, json={"checkpoint": "lab-add"}).status_code == 403
    )
    r = client.post("/api/regrades", headers=prof, json={"checkpoint": "lab-add"})
    assert r.status_code == 202, r.text
    regrade = r.json()
    assert (regrade["total"], regrade["done"], regrade["status"]) == (2, 0, "running")
    assert regrade["version"] == v2 and regrade["by"] == "prof" and _queued() >= 2
    assert client.get(f"/api/submissions/{good}", headers=ann).json()["regrade"] == regrade["id"]
    precheck(good)
    mid = client.get(regrade["url"], headers=prof).json()
    assert (mid["done"], mid["status"]) == (1, "running")
    precheck(bad)
    assert client.get(regrade["url"], headers=prof).json()["status"] == "done"

    now = client.get(f"/api/submissions/{good}", headers=ann).json()
    assert now["checkpoint_version"] == v2 and now["results"] == 2 and now["regrade"] is None
    history = client.get(f"/api/submissions/{good}/results", headers=ann).json()
    assert [(h["checkpoint_version"], h["current"]) for h in history] == [(v2, True), (v1, False)]
    assert history[0]["regrade"] == regrade["id"] and history[1]["regrade"] is None
    assert all(h["verdict"] == "correct" for h in history)
    board = client.get("/api/leaderboard/lab-add", headers=prof).json()["boards"]
    entries = [e for b in board.values() for e in b]
    assert sorted(e["student"] for e in entries) == ["ann", "bob"]  # once each
    assert {e["student"]: e["submissions"] for e in entries} == {"ann": 1, "bob": 1}


def test_regrade_requests_are_checked(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, prof = make_user("ann"), make_user("prof", "instructor")
    _install(_body())
    result = {"checkpoint": "lab-add", "device": "cpu", "verdict": "correct", "level": 2}
    sid = stored("ann", result, checkpoint="lab-add")

    def post(body: dict[str, object]) -> tuple[int, str]:
        r = client.post("/api/regrades", headers=prof, json=body)
        return r.status_code, r.json().get("error", "")

    assert post({})[0] == 400
    assert post({"checkpoint": "nope"})[0] == 404
    assert post({"checkpoint": "lab-add", "student": "nobody"})[0] == 404
    assert post({"submission": 999})[0] == 404
    assert post({"submission": sid, "checkpoint": "c3a-softmax"})[0] == 400
    status, error = post({"checkpoint": "c3a-softmax"})
    assert status == 409 and "nothing graded" in error
    one = client.post("/api/regrades", headers=prof, json={"submission": sid})
    assert one.status_code == 202 and one.json()["total"] == 1
    assert one.json()["scope"] == "submission" and one.json()["target"] == str(sid)
    status, error = post({"submission": sid})
    assert status == 409 and "still being graded" in error
    # the result stored before the regrade is kept in the history
    [kept] = client.get(f"/api/submissions/{sid}/results", headers=ann).json()
    assert kept["verdict"] == "correct" and kept["graded_level"] == 2 and not kept["current"]
    listed = client.get("/api/regrades?checkpoint=lab-add", headers=prof).json()
    assert [x["id"] for x in listed] == [one.json()["id"]]
    assert client.get("/api/regrades/12345", headers=prof).status_code == 404


def test_kept_results_withhold_hidden_cases_from_a_student(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    from tests.service.test_deadlines import _hidden_result

    ann, prof = make_user("ann"), make_user("prof", "instructor")
    sid = stored("ann", _hidden_result(), checkpoint="c3a-softmax")
    r = client.post("/api/regrades", headers=prof, json={"submission": sid})
    assert r.status_code == 202, r.text
    [kept] = client.get(f"/api/submissions/{sid}/results", headers=ann).json()
    assert "secret-wide" not in str(kept["result"]) and "hidden-1" in str(kept["result"])
    [full] = client.get(f"/api/submissions/{sid}/results", headers=prof).json()
    assert "secret-wide" in str(full["result"])

"""Admins add a checkpoint through the API: refused at once if its files cannot make one, else
validated by a worker task (here run in this process: the precheck queue's message is left
unused), which reports each check as it finishes and opens the checkpoint only if all pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"


def _body(reference: Path) -> dict[str, object]:
    toml = (VA / "checkpoint.toml").read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    return {
        "definition": toml,
        "problem": (VA / "problem.py").read_text(),
        "reference": reference.read_text(),
        "starter": (VA / "starter.py").read_text(),
        "wrong": {p.name: p.read_text() for p in sorted((VA / "solutions" / "wrong").glob("*.py"))},
    }


def _validated(client: TestClient, headers: dict[str, str], body: dict[str, object]) -> dict:  # type: ignore[type-arg]
    """POST the checkpoint, run the validation task it queued, and return its final state."""
    import redis

    from app.settings import get_settings
    from worker.tasks import validate_checkpoint

    r = client.post("/api/checkpoints", headers=headers, json=body)
    assert r.status_code == 202, r.text
    queued = r.json()
    assert queued["status"] == "queued" and queued["checkpoint"] == "lab-add"
    assert queued["url"] == f"/api/checkpoints/validations/{queued['id']}"
    broker = redis.Redis.from_url(str(get_settings().redis_url))
    assert broker.llen("precheck") == 1  # sent after the request's commit
    before = client.get(queued["url"], headers=headers).json()
    assert (before["status"], before["checks_done"], before["report"]) == ("queued", 0, None)
    validate_checkpoint(queued["id"])  # what a precheck worker does with the message
    done = client.get(queued["url"], headers=headers)
    assert done.status_code == 200, done.text
    v = done.json()
    assert v["status"] == "done" and v["checks_done"] == v["checks_total"] == len(v["checks"])
    return v


@pytest.mark.slow
def test_a_valid_checkpoint_opens_and_can_be_closed(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin, ann = make_user("root", "admin"), make_user("ann")
    assert (
        client.post("/api/checkpoints", headers=ann, json=_body(VA / "reference.py")).status_code
        == 403
    )
    report = _validated(client, admin, _body(VA / "reference.py"))["report"]
    assert report["valid"] and all(c["ok"] for c in report["checks"])
    assert report["checks"][0]["reason"]  # each check says why
    assert "lab-add" in [c["id"] for c in client.get("/api/checkpoints", headers=ann).json()]
    sub = {"checkpoint": "lab-add", "source": (VA / "reference.py").read_text()}
    assert client.post("/api/submissions", headers=ann, json=sub).status_code == 201
    closed = client.patch("/api/checkpoints/lab-add", headers=admin, json={"open": False})
    assert closed.status_code == 200 and closed.json()["open"] is False
    r = client.post("/api/submissions", headers=ann, json=sub)
    assert r.status_code == 409 and "closed" in r.json()["error"]
    # a built-in is closed in the course file, its files untouched (test_course_shape.py)
    builtin = client.patch("/api/checkpoints/c3a-softmax", headers=admin, json={"open": False})
    assert builtin.status_code == 200 and builtin.json()["open"] is False


@pytest.mark.slow
def test_a_checkpoint_with_a_wrong_reference_never_opens(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin = make_user("root", "admin")
    report = _validated(client, admin, _body(VA / "solutions" / "wrong" / "unwritten_buffer.py"))[
        "report"
    ]
    assert not report["valid"]
    assert "not opened" in report["error"]
    ref = next(c for c in report["checks"] if c["name"] == "reference.py")
    assert ref["got"] == "wrong_answer"
    assert "lab-add" not in [c["id"] for c in client.get("/api/checkpoints", headers=admin).json()]


def test_bad_files_are_refused_at_once_and_nothing_is_stored(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import func, select

    from app.db import sessions
    from app.models import CheckpointValidation

    admin = make_user("root", "admin")
    good = _body(VA / "reference.py")
    cases = [
        ({**good, "definition": "id = [unclosed"}, 400, "checkpoint.toml"),
        ({**good, "definition": 'id = "Not An Id"\n'}, 400, "lower-case"),
        ({**good, "definition": 'id = "c3a-softmax"\n'}, 409, "built-in"),
        ({**good, "wrong": {"../x.py": "# expect: wrong_answer\n"}}, 400, "bad file name"),
        # read as data, never run: what problem.py does is found by the validation's sandbox
        ({**good, "problem": "raise RuntimeError('boom')\n"}, 400, "missing function"),
        ({**good, "problem": "def make_inputs(:\n"}, 400, "syntax error"),
        ({**good, "reference": "#" * (2 << 20)}, 422, "at most"),  # the model's cap
        ({**good, "wrong": {"no_expect.py": "x = 1\n"}}, 400, "expect"),
    ]
    for body, status, words in cases:
        r = client.post("/api/checkpoints", headers=admin, json=body)
        assert r.status_code == status and words in r.json()["error"], (words, r.text)
    with sessions()() as s:
        assert s.scalar(select(func.count()).select_from(CheckpointValidation)) == 0


@pytest.mark.slow
def test_each_check_is_visible_to_the_admin_as_it_finishes(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    """The task's steps, with the admin's GET made each time a check is recorded: what the
    page polls shows every check as soon as it is stored."""
    from app.checkpoints import validations
    from app.db import transaction
    from app.settings import get_settings

    admin = make_user("root", "admin")
    url = client.post("/api/checkpoints", headers=admin, json=_body(VA / "reference.py")).json()[
        "url"
    ]
    s = get_settings()
    with transaction() as session:
        job = validations.claim(session, int(url.rsplit("/", 1)[1]), "test-worker", s)
    assert job is not None
    seen: list[tuple[str, int, int]] = []

    def record(checks: validations.Checks) -> None:
        with transaction() as session:
            assert validations.record(session, job, checks)
        v = client.get(url, headers=admin).json()
        assert v["checks_done"] == sum(c is not None for c in checks)
        seen.append((v["status"], v["checks_done"], v["checks_total"]))

    outcome = validations.run(job, s, record)
    total = seen[0][2]
    assert outcome.valid and total > 1
    assert seen == [("running", n, total) for n in range(total + 1)]
    with transaction() as session:
        assert validations.finish(session, job, outcome)
    assert client.get(url, headers=admin).json()["report"]["valid"]


def test_the_reconciler_resends_a_lost_validation_and_gives_up_after_max_attempts(  # type: ignore[no-untyped-def]
    client: TestClient, make_user, service_env
) -> None:
    from datetime import timedelta

    import redis
    from sqlalchemy import update

    from app.db import transaction
    from app.models import CheckpointValidation, now
    from app.settings import get_settings
    from worker.tasks import reconcile

    admin = make_user("root", "admin")
    lost = client.post("/api/checkpoints", headers=admin, json=_body(VA / "reference.py")).json()
    dead = client.post("/api/checkpoints", headers=admin, json=_body(VA / "reference.py")).json()
    broker = redis.Redis.from_url(service_env["KGRADE_REDIS_URL"])
    broker.delete("precheck")  # both messages lost
    s = get_settings()
    with transaction() as t:
        t.execute(
            update(CheckpointValidation)
            .where(CheckpointValidation.id == lost["id"])
            .values(enqueued_at=now() - timedelta(seconds=s.lease_seconds + 5))
        )
        t.execute(
            update(CheckpointValidation)
            .where(CheckpointValidation.id == dead["id"])
            .values(
                status="running",
                attempts=s.max_attempts,
                lease_expires_at=now() - timedelta(seconds=1),
            )
        )
    assert reconcile() == 1
    assert broker.llen("precheck") == 1  # the lost one, sent again after the commit
    assert client.get(lost["url"], headers=admin).json()["status"] == "queued"
    gone = client.get(dead["url"], headers=admin).json()
    assert gone["status"] == "done" and not gone["report"]["valid"]
    assert "failed 3 times" in gone["report"]["error"]
    assert reconcile() == 0  # re-sent rows wait a whole lease again


def test_authoring_mistakes_are_400s_with_the_file_and_line(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    """Never a temporary path, never pydantic's raw text; the line where there is one."""
    admin = make_user("root", "admin")
    good = _body(VA / "reference.py")
    toml = str(good["definition"])
    wrong = dict(good["wrong"])  # type: ignore[call-overload]
    table_line = toml.splitlines().index("[[interpreter_cases]]") + 1
    cases = [
        (
            {
                **good,
                "definition": toml.replace("[[interpreter_cases]]", "[[interpreter_cases]", 1),
            },
            f"checkpoint.toml, line {table_line}: not valid TOML: Expected ']]'",
        ),
        (
            {**good, "definition": toml.replace('title = "C3a · Vector add"', "title = 3")},
            "checkpoint.toml, line 2: field title: Input should be a valid string (it is 3)",
        ),
        (
            {**good, "definition": toml.replace('entry = "vector_add_triton"\n', "")},
            "checkpoint.toml: field entry: required, and missing",
        ),
        (
            {**good, "problem": "import torch\n\ndef make_inputs(:\n"},
            "problem.py, line 3: Python syntax error",
        ),
        ({**good, "reference": "def f(:\n"}, "reference.py, line 1: Python syntax error"),
        (
            {**good, "wrong": {**wrong, "x.py": "import torch\n"}},
            "solutions/wrong/x.py, line 1: no '# expect: VERDICT' line",
        ),
        (
            {**good, "wrong": {**wrong, "x.py": "# expect: wrongish\n"}},
            "solutions/wrong/x.py, line 1: '# expect:' names 'wrongish', not a verdict",
        ),
    ]
    for body, words in cases:
        r = client.post("/api/checkpoints", headers=admin, json=body)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error.startswith(words), (words, error)
        assert "/tmp" not in error and "kgrade-checkpoint-" not in error and "pydantic" not in error

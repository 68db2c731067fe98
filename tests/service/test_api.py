"""The JSON API against real PostgreSQL and Redis."""

from __future__ import annotations

from pathlib import Path

import redis
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.service.conftest import signin_form

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference_kernels" / "c3a_softmax" / "reference.py").read_text()


def _count() -> int:
    from app.db import sessions
    from app.models import Submission

    with sessions()() as s:
        return int(s.scalar(select(func.count()).select_from(Submission)) or 0)


def test_health_reports_database_broker_and_workers(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"database": "ok", "broker": "ok", "workers": []}


def test_tokens_are_required_and_checked(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    assert client.get("/api/submissions").status_code == 401
    bad = client.get("/api/submissions", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.json() == {"error": "invalid token"}
    assert client.get("/api/submissions", headers=make_user("ann")).status_code == 200


def test_tokens_are_stored_hashed(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    from app.db import sessions
    from app.models import ApiToken

    token = make_user("ann")["Authorization"].split()[1]
    with sessions()() as s:
        stored = s.scalar(select(ApiToken.token_hash))
    assert stored and token not in stored and len(stored) == 64


def test_submit_commits_then_queues(client: TestClient, make_user, service_env) -> None:  # type: ignore[no-untyped-def]
    r = client.post(
        "/api/submissions",
        headers=make_user("ann"),
        json={"checkpoint": "c3a-softmax", "source": REFERENCE},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["status"] == "queued" and body["stage"] == "precheck"
    assert _count() == 1
    broker = redis.Redis.from_url(service_env["KGRADE_REDIS_URL"])
    assert broker.llen("precheck") == 1  # the message for the precheck queue is there


def test_bad_input_gets_one_line_errors_and_stores_nothing(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    h = make_user("ann")
    cases = [
        ({"checkpoint": "c3a-softmax", "source": "x" * (257 * 1024)}, 413, "256 KiB"),
        ({"checkpoint": "c3a-softmax"}, 422, "source"),
        ({"checkpoint": "nope", "source": REFERENCE}, 404, "unknown checkpoint"),
        ({"checkpoint": "c3a-softmax", "source": "   "}, 400, "empty"),
    ]
    for body, status, words in cases:
        r = client.post("/api/submissions", headers=h, json=body)
        assert r.status_code == status, (body.keys(), r.text)
        assert list(r.json()) == ["error"] and words in r.json()["error"]
    raw = b'{"checkpoint": "c3a-softmax", "source": "\\ud800"}'  # a lone surrogate
    r = client.post(
        "/api/submissions", headers={**h, "Content-Type": "application/json"}, content=raw
    )
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    assert _count() == 0


def test_quota_answers_429_with_retry_after(client: TestClient, make_user, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_SUBMISSIONS_PER_HOUR", "2")
    get_settings.cache_clear()
    h = make_user("ann")
    body = {"checkpoint": "c3a-softmax", "source": REFERENCE}
    assert [
        client.post("/api/submissions", headers=h, json=body).status_code for _ in range(2)
    ] == [201, 201]
    r = client.post("/api/submissions", headers=h, json=body)
    assert r.status_code == 429
    assert 3000 < int(r.headers["Retry-After"]) <= 3601
    assert _count() == 2


def test_students_see_only_their_own(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, bob, prof = make_user("ann"), make_user("bob"), make_user("prof", "instructor")
    sid = client.post(
        "/api/submissions", headers=ann, json={"checkpoint": "c3a-softmax", "source": REFERENCE}
    ).json()["id"]
    assert client.get(f"/api/submissions/{sid}", headers=ann).json()["id"] == sid
    r = client.get(f"/api/submissions/{sid}", headers=bob)
    assert r.status_code == 404 and REFERENCE[:40] not in r.text
    assert client.get("/api/submissions", headers=bob).json() == []
    assert [s["id"] for s in client.get("/api/submissions", headers=prof).json()] == [sid]
    assert client.get("/api/submissions?student=bob", headers=prof).json() == []


def test_broker_down_is_a_503_and_nothing_is_stored(
    client: TestClient, make_user, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from app.jobs.celery_app import reconfigure
    from app.settings import get_settings

    h = make_user("ann")
    monkeypatch.setenv("KGRADE_REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    get_settings.cache_clear()
    reconfigure()
    r = client.post(
        "/api/submissions", headers=h, json={"checkpoint": "c3a-softmax", "source": REFERENCE}
    )
    assert r.status_code == 503 and "queue is unavailable" in r.json()["error"]
    assert client.get("/api/health").status_code == 503
    assert _count() == 0


def test_database_down_is_a_503(service_env, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.main import create_app
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:1/none")
    get_settings.cache_clear()
    c = TestClient(create_app(), raise_server_exceptions=False)
    r = c.get("/api/submissions", headers={"Authorization": "Bearer x"})
    assert r.status_code == 503 and "database is unavailable" in r.json()["error"]
    assert c.get("/api/health").json()["database"].startswith("unavailable")


def test_checkpoints_are_listed_with_starter(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    rows = client.get("/api/checkpoints", headers=make_user("ann")).json()
    softmax = next(c for c in rows if c["id"] == "c3a-softmax")
    assert softmax["entry"] == "softmax_triton" and "def softmax_triton" in softmax["starter"]


def test_the_row_is_committed_before_the_response_is_sent(make_user) -> None:  # type: ignore[no-untyped-def]
    """A client that reads its submission right after the 201 (or follows the page's 303)
    must find it: the request's transaction commits, and the precheck is sent, before the
    first byte of the response. FastAPI's default runs a yield dependency's exit after the
    response; `SessionDep` asks for the function scope. Checked at the moment the app starts
    the response, from another connection."""
    import re

    from app.main import create_app

    inner = create_app()
    at_start: list[tuple[int, int]] = []  # (rows committed, messages sent) at response start

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        async def watched(message):  # type: ignore[no-untyped-def]
            posted = scope["method"] == "POST" and scope["path"] in ("/api/submissions", "/submit")
            if message["type"] == "http.response.start" and posted:
                at_start.append((_count(), _broker().llen("precheck")))
            await send(message)

        await inner(scope, receive, watched)

    client = TestClient(app, follow_redirects=False)
    headers = make_user("ann")
    r = client.post(
        "/api/submissions", headers=headers, json={"checkpoint": "c3a-softmax", "source": REFERENCE}
    )
    assert r.status_code == 201 and at_start == [(1, 1)]
    token = headers["Authorization"].split()[1]
    assert client.post("/signin", data=signin_form(client, {"token": token})).status_code == 303
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/submit").text)
    assert csrf is not None
    data = {"checkpoint": "c3a-softmax", "csrf": csrf.group(1), "source": REFERENCE}
    assert client.post("/submit", data=data).status_code == 303
    assert at_start == [(1, 1), (2, 2)]


def _broker() -> redis.Redis:
    from app.settings import get_settings

    return redis.Redis.from_url(str(get_settings().redis_url))

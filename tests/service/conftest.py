"""The service against real PostgreSQL and Redis (the ones CI starts), built by the migrations.

Each test session gets its own database, created here and dropped at the end, and its own
Redis database index; each test starts from empty tables and an empty broker.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import text

PG_ADMIN = os.environ.get("KGRADE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("KGRADE_TEST_REDIS", "redis://127.0.0.1:6379")


def _redis_db() -> int:
    """10, 11, … per xdist worker; KGRADE_TEST_REDIS_DB_BASE moves the block so that two test
    sessions on one machine (a CI rehearsal beside a developer's run) do not flush each other."""
    base = int(os.environ.get("KGRADE_TEST_REDIS_DB_BASE", "10"))
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return base + int(worker.removeprefix("gw") or 0) % 3


@contextmanager
def new_database(prefix: str = "kgrade_test") -> Iterator[str]:
    """An empty PostgreSQL database of its own (its SQLAlchemy URL), dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    yield f"{base}/{name}"
    from app.db import engine_for

    engine_for(f"{base}/{name}").dispose()
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    with new_database() as url:
        yield url


@pytest.fixture
def service_env(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, str]]:
    """Settings pointing at the test PostgreSQL and Redis; migrated, emptied."""
    from app.jobs.celery_app import reconfigure
    from app.settings import get_settings

    env = {
        "KGRADE_DATABASE_URL": pg_url,
        "KGRADE_REDIS_URL": f"{REDIS}/{_redis_db()}",
        "KGRADE_HOME": str(tmp_path / "home"),
        "KGRADE_TIME_LIMIT_CPU": "60",
        # workers at their usual priority, as the tests' waits were sized for (the niceness
        # itself: test_worker.py)
        "KGRADE_PRECHECK_NICE": "0",
    }
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    reconfigure()
    from app.cli.host import migrate
    from app.db import engine

    migrate()
    with engine().begin() as conn:
        conn.execute(
            text(
                "TRUNCATE api_tokens, invites, signin_failures, checkpoint_validations, "
                "checkpoint_deadlines, "
                "evidence, grading_events, level_overrides, standings, grading_results, "
                "regrades, checkpoint_versions, submissions, users, workers, web_sessions "
                "RESTART IDENTITY"
            )
        )
    redis.Redis.from_url(env["KGRADE_REDIS_URL"]).flushdb()
    yield env
    get_settings.cache_clear()
    reconfigure()


@pytest.fixture
def client(service_env: dict[str, str]) -> TestClient:
    from app.main import create_app

    return TestClient(create_app())


@pytest.fixture
def make_user(service_env: dict[str, str]):  # type: ignore[no-untyped-def]
    from app.db import transaction
    from app.users import service

    def make(name: str, role: str = "student") -> dict[str, str]:
        with transaction() as session:
            _, token = service.add(session, name, role)
        return {"Authorization": f"Bearer {token}"}

    return make


def stored(
    name: str, result: dict[str, Any], checkpoint: str = "c3a-softmax", **fields: Any
) -> int:
    """A graded submission of user `name`, as a worker would have stored `result` (its summary
    fields from it; `fields` override them, e.g. an instructor's level); its id."""
    from app.db import transaction
    from app.models import Stage, Status, Submission, User
    from app.submissions.lifecycle import summary_fields
    from grader import GradeResult

    with transaction() as s:
        user = s.query(User).filter_by(name=name).one()
        summary = summary_fields(GradeResult.model_validate(result))
        sub = Submission(
            user_id=user.id,
            checkpoint=checkpoint,
            source=fields.pop("source", "# a kernel"),
            status=Status.DONE,
            stage=Stage.DONE,
            **{**summary, **fields},
        )
        s.add(sub)
        s.flush()
        return sub.id


def signin_form(client: Any, data: dict[str, str]) -> dict[str, str]:
    """The sign-in form's fields with its CSRF token, from GET /signin first, as a browser
    does (the token is the sign-in cookie's: app/web/session.py)."""
    import re

    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/signin").text)
    return {**data, "csrf": m.group(1) if m else ""}

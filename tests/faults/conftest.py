"""Fault tests: the real API, real Celery workers, and Redis/PostgreSQL servers of their own.

`stack(...)` points kgrade (this process: the API through TestClient and the reconciler; the
worker subprocesses: their environment) at a database and a broker, migrated and empty, and
gives the helpers every fault test needs: users, submissions with a unique marker each, the
rows, and `settle`, which checks the invariants after a fault.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.faults.stack import PrivateRedis, Workers, wait_for
from tests.service.conftest import pg_url  # noqa: F401 - a database of this session's own

ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
CHECKPOINT = "c3a-vector-add"


def repoint_celery() -> None:
    """Apply the settings to this process's Celery app, dropping pooled broker connections
    (they would still point at the previous test's Redis)."""
    from app.jobs.celery_app import celery_app, reconfigure

    reconfigure()
    celery = celery_app()
    celery._pool = None
    if "amqp" in celery.__dict__:
        celery.amqp._producer_pool = None


@dataclass
class Stack:
    env: dict[str, str]
    workers: Workers
    client: TestClient
    accepted: dict[int, str] = field(default_factory=dict)  # id → marker
    _users: int = 0

    def user(self, role: str = "student") -> dict[str, str]:
        from app.db import transaction
        from app.users import service

        self._users += 1
        with transaction() as session:
            _, token = service.add(session, f"u{self._users}-{uuid.uuid4().hex[:6]}", role)
        return {"Authorization": f"Bearer {token}"}

    def post(self, headers: dict[str, str], source: str = VECTOR_ADD) -> tuple[int, str]:
        """POST one submission with a unique marker; returns (status, marker). Accepted ones
        are remembered in `accepted`."""
        marker = uuid.uuid4().hex
        r = self.client.post(
            "/api/submissions",
            headers=headers,
            json={"checkpoint": CHECKPOINT, "source": f"{source}\n# marker {marker}\n"},
        )
        if r.status_code == 201:
            self.accepted[int(r.json()["id"])] = marker
        return r.status_code, marker

    def submit(self, headers: dict[str, str], source: str = VECTOR_ADD) -> int:
        status, marker = self.post(headers, source)
        assert status == 201, status
        return next(i for i, m in self.accepted.items() if m == marker)

    def rows(self) -> dict[int, dict[str, object]]:
        from app.db import engine

        with engine().connect() as conn:
            res = conn.execute(
                text(
                    "SELECT id, status, stage, attempts, claimed_by, verdict, finished_at, "
                    "substring(source from '# marker ([0-9a-f]+)') AS marker FROM submissions"
                )
            )
            return {r.id: dict(r._mapping) for r in res}

    def row(self, sid: int) -> dict[str, object]:
        return self.rows()[sid]

    def settle(self, timeout: float, verdicts: dict[int, str] | None = None) -> dict:  # type: ignore[type-arg]
        """Wait until every row is done, then check: the rows are exactly the accepted ones (none
        lost, none extra, one per marker), each has one final result that does not change
        afterwards, with the expected verdict (`correct` unless `verdicts` says otherwise)."""
        wait_for(
            lambda: all(r["status"] == "done" for r in self.rows().values()),
            timeout,
            "every submission to be graded",
            1.0,
        )
        first = self.rows()
        time.sleep(3)  # anything still in flight (a redelivery, a resend) would show now
        from worker import tasks

        tasks.reconcile()
        time.sleep(2)
        rows = self.rows()
        assert set(rows) == set(self.accepted), "rows lost or added"
        markers = [r["marker"] for r in rows.values()]
        assert len(markers) == len(set(markers)), "a submission stored twice"
        assert {i: r["marker"] for i, r in rows.items()} == self.accepted
        for i, r in rows.items():
            assert (r["status"], r["stage"]) == ("done", "done"), r
            assert r["finished_at"] == first[i]["finished_at"], f"{i}: result written twice"
            assert r["verdict"] == (verdicts or {}).get(i, "correct"), r
        return rows


@pytest.fixture
def stack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Stack]]:
    """stack(database_url, redis_url, **settings) → Stack, migrated and emptied."""
    from app.settings import get_settings

    made: list[Stack] = []

    def make(database_url: str, redis_url: str, **settings: str) -> Stack:
        env = {
            "KGRADE_DATABASE_URL": database_url,
            "KGRADE_REDIS_URL": redis_url,
            "KGRADE_HOME": str(tmp_path / "home"),
            "KGRADE_LEASE_SECONDS": "30",  # the shortest allowed: a dead worker costs 30 s
            "KGRADE_TIME_LIMIT_CPU": "60",
            "KGRADE_SUBMISSIONS_PER_HOUR": "10000",
            "KGRADE_PRECHECK_NICE": "0",  # as the waits were sized for
            **{f"KGRADE_{k.upper()}": v for k, v in settings.items()},
        }
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        get_settings.cache_clear()
        repoint_celery()
        from app.cli.host import migrate
        from app.db import engine
        from app.main import create_app

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
        logs = tmp_path / "logs"
        logs.mkdir(exist_ok=True)
        s = Stack(env, Workers(env, logs), TestClient(create_app(), raise_server_exceptions=False))
        made.append(s)
        return s

    yield make
    for s in made:
        s.workers.stop_all()
    monkeypatch.undo()
    get_settings.cache_clear()
    repoint_celery()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Callable[..., PrivateRedis]]:
    servers: list[PrivateRedis] = []

    def make(appendonly: bool = False) -> PrivateRedis:
        servers.append(PrivateRedis(tmp_path / f"redis-{len(servers)}", appendonly))
        return servers[-1]

    yield make
    for r in servers:
        r.stop()


@pytest.fixture
def reconciler() -> Iterator[Callable[[float], None]]:
    """reconciler(every): run the reconcile task in a thread of this process every `every`
    seconds, as beat does every 30 s in a deployment; errors (a service down) are retried."""
    from worker import tasks

    stop = threading.Event()
    threads: list[threading.Thread] = []

    def loop(every: float) -> None:
        while not stop.wait(every):
            with contextlib.suppress(Exception):
                tasks.reconcile()

    def start(every: float = 2.0) -> None:
        threads.append(threading.Thread(target=loop, args=(every,), daemon=True))
        threads[-1].start()

    yield start
    stop.set()
    for t in threads:
        t.join(timeout=30)


def workers_up(n: int) -> Callable[[], bool]:
    """True once n workers have reported themselves in the workers table."""

    def check() -> bool:
        from app.db import engine

        with engine().connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM workers")).scalar() or 0) >= n

    return check

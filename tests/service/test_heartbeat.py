"""The lease is short and the heartbeat keeps it (issue 21): a worker that died is replaced
within a minute, and a worker that is alive keeps its grading however long it runs.

On PostgreSQL and Redis, a real Celery worker grades a submission that spins until its time
limit, longer than its lease; the reconciler, run here again and again meanwhile, never takes
it away: the grading ends once, on its first attempt, with the lease renewed while it ran."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.cli.host import worker_argv
from app.db import sessions
from app.models import Status, Submission, WorkerSeen
from app.settings import Settings
from tests.faults.stack import wait_for

ROOT = Path(__file__).resolve().parents[2]
ENDLESS = ROOT / "tests" / "fixtures" / "submissions" / "endless_entry.py"


def test_the_defaults_bring_a_dead_workers_grading_back_within_a_minute() -> None:
    d = {k: f.default for k, f in Settings.model_fields.items()}  # the class's, not the env's
    # A worker that dies right after a beat leaves a whole lease; the reconciler sees it
    # expired at most one period later, and sends it again.
    assert d["lease_seconds"] + d["reconcile_seconds"] <= 60
    s = Settings(lease_seconds=d["lease_seconds"])  # type: ignore[call-arg]
    # Three beats in a row may fail (a database restart) before the lease runs out.
    assert s.heartbeat_every * 4 <= s.lease_seconds


def _row(sid: int) -> Submission:
    with sessions()() as s:
        row = s.get(Submission, sid)
        assert row is not None
        return row


@pytest.mark.slow
def test_a_grading_longer_than_its_lease_is_kept_by_its_heartbeat(  # type: ignore[no-untyped-def]
    client: TestClient, make_user, service_env, monkeypatch
) -> None:
    from app.settings import get_settings
    from worker import tasks

    short = {"KGRADE_LEASE_SECONDS": "30", "KGRADE_TIME_LIMIT_CPU": "45"}
    service_env.update(short)  # for the worker
    for k, v in short.items():  # for the reconciler run here
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    proc = subprocess.Popen(
        worker_argv(["precheck"], beat=False),
        cwd=ROOT,
        env={**os.environ, **service_env},
        start_new_session=True,
    )
    try:
        with sessions()() as s:
            wait_for(lambda: s.query(WorkerSeen).count() > 0, 90, "the worker to report itself")
        r = client.post(
            "/api/submissions",
            headers=make_user("ann"),
            json={"checkpoint": "c3a-softmax", "source": ENDLESS.read_text()},
        )
        assert r.status_code == 201, r.text
        sid = int(r.json()["id"])
        wait_for(lambda: _row(sid).status == Status.RUNNING, 90, "the grading to start", 0.1)
        started = time.monotonic()
        first = _row(sid).lease_expires_at
        assert isinstance(first, datetime)
        leases: list[datetime] = []
        while _row(sid).status == Status.RUNNING:
            assert tasks.reconcile() == 0, "a live worker's grading was taken away"
            row = _row(sid)
            assert row.attempts == 1, "graded a second time"
            if row.lease_expires_at is not None:
                leases.append(row.lease_expires_at)
            assert time.monotonic() - started < 150, "the grading never ended"
            time.sleep(1.0)
        ran = time.monotonic() - started
        row = _row(sid)
        assert ran > 30, f"the grading took {ran:.0f} s, not longer than its 30 s lease"
        assert (row.status, row.attempts, row.verdict) == (Status.DONE, 1, "time_limit")
        assert max(leases) > first, "the lease was never renewed"
        assert tasks.reconcile() == 0
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)

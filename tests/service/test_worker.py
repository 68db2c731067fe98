"""Real Celery workers on Redis and PostgreSQL: submissions graded end to end, and a worker
killed mid-grading loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.cli.host import worker_argv
from app.db import sessions
from app.models import Status, Submission, WorkerSeen
from tests.procs import descendants, harness_pids

ROOT = Path(__file__).resolve().parents[2]
SOFTMAX = ROOT / "reference_kernels" / "c3a_softmax"
pytestmark = pytest.mark.slow


def _wait(pred: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _workers() -> int:
    with sessions()() as s:
        return s.query(WorkerSeen).count()


def _row(sid: int) -> Submission:
    with sessions()() as s:
        row = s.get(Submission, sid)
        assert row is not None
        return row


@pytest.fixture
def start_worker(service_env: dict[str, str]) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        before = _workers()
        proc = subprocess.Popen(
            worker_argv(["precheck"], beat=False),
            cwd=ROOT,
            env={**os.environ, **service_env},
            start_new_session=True,
        )
        procs.append(proc)
        _wait(lambda: _workers() > before, 60, "the worker to report itself")
        return proc

    yield start
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=30)


def _submit(client: TestClient, headers: dict[str, str], path: Path) -> int:
    r = client.post(
        "/api/submissions",
        headers=headers,
        json={"checkpoint": "c3a-softmax", "source": path.read_text()},
    )
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_a_worker_grades_right_and_wrong_submissions(
    client, make_user, start_worker, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KGRADE_PRECHECK_SPARE", "true")
    start_worker()
    ann = make_user("ann")
    good = _submit(client, ann, SOFTMAX / "reference.py")
    bad = _submit(client, ann, SOFTMAX / "solutions" / "wrong" / "no_max_subtraction.py")
    _wait(
        lambda: _row(good).status == Status.DONE and _row(bad).status == Status.DONE,
        120,
        "both gradings",
    )
    g = client.get(f"/api/submissions/{good}", headers=ann).json()
    b = client.get(f"/api/submissions/{bad}", headers=ann).json()
    assert (g["verdict"], g["level"]) == ("correct", 2), g["result"]["messages"]
    assert (b["verdict"], b["level"]) == ("wrong_answer", 1)
    assert g["result"]["cases"] and g["result"]["device"] == "cpu (Triton interpreter)"
    assert g["attempts"] == 1
    # between gradings a precheck worker keeps one sandboxed child waiting for the next
    # (KGRADE_PRECHECK_SPARE), started while it graded
    _wait(lambda: len(harness_pids(descendants(os.getpid()))) == 1, 30, "the spare child")


def _nice(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])  # field 19: nice


def _env(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(kv.decode().split("=", 1) for kv in raw if b"=" in kv)


def test_a_precheck_worker_and_its_pool_run_at_the_configured_niceness_and_threads(  # type: ignore[no-untyped-def]
    start_worker, monkeypatch
) -> None:
    """A CPU precheck worker yields the CPU to GPU workers on a shared host: KGRADE_PRECHECK_NICE
    (10 by default) on the worker, inherited by its pool process and every sandbox it starts;
    and its torch keeps to KGRADE_PRECHECK_THREADS threads (1 by default)."""
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_PRECHECK_NICE", "7")  # read by worker_argv, here
    monkeypatch.setenv("KGRADE_PRECHECK_THREADS", "3")
    get_settings.cache_clear()
    try:
        proc = start_worker()
    finally:
        get_settings.cache_clear()  # the next test reads its own settings
    pool = descendants(proc.pid)
    assert pool, "the worker has no pool process"
    expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 7)  # nice -n adds to ours
    assert [_nice(p) for p in [proc.pid, *pool]] == [expected] * (1 + len(pool))
    for p in [proc.pid, *pool]:
        env = _env(p)
        assert (env.get("OMP_NUM_THREADS"), env.get("MKL_NUM_THREADS")) == ("3", "3"), p


def test_a_worker_killed_mid_grading_loses_nothing(  # type: ignore[no-untyped-def]
    client, make_user, start_worker, service_env, monkeypatch
) -> None:
    from app.settings import get_settings
    from worker import tasks

    short = {"KGRADE_LEASE_SECONDS": "30", "KGRADE_TIME_LIMIT_CPU": "10"}
    service_env.update(short)  # for the worker processes
    for k, v in short.items():  # for the reconciler run here
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    first = start_worker()
    ann = make_user("ann")
    sid = _submit(client, ann, ROOT / "tests" / "fixtures" / "submissions" / "endless_entry.py")
    _wait(lambda: _row(sid).status == Status.RUNNING, 60, "the grading to start")
    os.killpg(first.pid, signal.SIGKILL)  # the worker and its sandbox, mid-grading
    first.wait()
    start_worker()
    _wait(
        lambda: (_row(sid).lease_expires_at or 0) and tasks.reconcile() >= 1,
        90,
        "the reconciler to re-send the expired lease",
    )
    _wait(lambda: _row(sid).status == Status.DONE, 150, "the second attempt")
    row = _row(sid)
    assert row.attempts == 2 and row.verdict == "time_limit"
    with sessions()() as s:
        assert s.query(Submission).count() == 1


def test_a_correct_precheck_goes_on_to_its_gpu_queue(  # type: ignore[no-untyped-def]
    client, make_user, start_worker, service_env, monkeypatch
) -> None:
    import redis

    service_env["KGRADE_GPU_MODELS"] = "h200"  # this deployment has H200 workers
    start_worker()
    ann = make_user("ann")
    good = _submit(client, ann, SOFTMAX / "reference.py")
    bad = _submit(client, ann, SOFTMAX / "solutions" / "wrong" / "no_max_subtraction.py")
    _wait(
        lambda: _row(good).stage == "gpu" and _row(bad).status == Status.DONE,
        120,
        "the precheck of both",
    )
    row = _row(good)
    assert (row.status, row.attempts, row.level) == (Status.QUEUED, 0, 2)  # precheck kept
    assert _row(bad).verdict == "wrong_answer"  # never reaches a GPU
    broker = redis.Redis.from_url(service_env["KGRADE_REDIS_URL"])
    assert broker.llen("gpu.h200") == 1

    # The GPU queue's message is lost before any GPU worker takes it: the reconciler sends it
    # again, to the same GPU queue (not to the precheck queue, whose workers would drop it).
    from datetime import timedelta

    from sqlalchemy import update

    from app.db import transaction
    from app.models import now
    from app.settings import get_settings
    from worker.tasks import reconcile

    def lose_the_message() -> None:
        """The key gone from Redis, and the row queued for longer than a lease."""
        broker.delete("gpu.h200")
        with transaction() as s:
            s.execute(
                update(Submission)
                .where(Submission.id == good)
                .values(enqueued_at=now() - timedelta(hours=1))
            )

    monkeypatch.setenv("KGRADE_GPU_MODELS", "h200")
    get_settings.cache_clear()
    lose_the_message()
    assert reconcile() == 1
    assert broker.llen("gpu.h200") == 1
    assert (_row(good).stage, _row(good).status) == ("gpu", Status.QUEUED)

    # The deployment then stops listing H200 (workers being replaced, a typo in the setting):
    # the row still belongs to the H200 queue it was sent to; the precheck queue would drop it
    # and the reconciler would send it there again every lease, forever.
    monkeypatch.setenv("KGRADE_GPU_MODELS", "rtx5090")
    get_settings.cache_clear()
    lose_the_message()
    assert reconcile() == 1
    assert broker.llen("gpu.h200") == 1 and broker.llen("precheck") == 0
    assert _row(good).gpu_model == "h200"

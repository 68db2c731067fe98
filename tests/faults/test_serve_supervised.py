"""`kgrade serve` supervises its worker (issue 21): on the embedded default in a home of its
own, the worker's main process is SIGKILLed while it grades; the worker is back at once, what
it left (its pool process, its embedded beat, the sandbox) is gone, every accepted submission
ends with exactly one final result, and Ctrl-C then leaves no process of the tree behind.

The grading in flight is re-run by the reconciler once its lease runs out: KGRADE_LEASE_SECONDS
at its floor (30 s) and the reconciler every 3 s here; with the defaults (45 s, 10 s) it waits
at most 55 s (tests/faults/test_gpu_worker_kill.py runs with the defaults)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.faults.stack import free_port, wait_for
from tests.procs import alive, children, cmdline, descendants, start_kgrade, with_home

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
SUBMISSIONS = 4


@dataclass
class Serve:
    proc: subprocess.Popen[bytes]
    url: str
    home: Path
    log: Path
    staff: str | None = None

    def said(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def worker(self) -> int | None:
        """The Celery worker's main process: serve's child running `celery … worker`."""
        for pid in children(self.proc.pid):
            argv = cmdline(pid)
            if "celery" in argv and "worker" in argv and alive(pid):
                return pid
        return None

    def seen(self) -> set[str]:
        """The workers /api/health names (their host:pid names only for staff: issue 32)."""
        if self.staff is None:
            self.staff = _token(self, "admin")
        headers = {"Authorization": f"Bearer {self.staff}"}
        health = httpx.get(f"{self.url}/api/health", headers=headers, timeout=5).json()
        return {w["name"] for w in health.get("workers", [])}

    def rows(self) -> dict[int, tuple[str, str, str | None, str | None, int]]:
        with sqlite3.connect(self.home / "kgrade.db", timeout=30) as db:
            return {
                r[0]: r[1:]
                for r in db.execute(
                    "SELECT id, status, stage, verdict, finished_at, attempts FROM submissions"
                )
            }


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    home = tmp_path / "home"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env.update(
        KGRADE_HOME=str(home),
        KGRADE_PORT=str(port),
        KGRADE_LEASE_SECONDS="30",  # its floor: a dead worker's grading waits 30 s
        KGRADE_RECONCILE_SECONDS="3",
        KGRADE_SUBMISSIONS_PER_HOUR="10000",
        KGRADE_PRECHECK_NICE="0",  # as the waits were sized for
    )
    log = tmp_path / "serve.log"
    proc = start_kgrade(["serve"], env, log)
    s = Serve(proc, f"http://127.0.0.1:{port}", home, log)
    try:
        yield s
    finally:  # a failed test leaves nothing running either
        for pid in [proc.pid, *descendants(proc.pid), *with_home(home)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait()


def _token(s: Serve, role: str = "student") -> str:
    add = subprocess.run(
        [
            *(sys.executable, "-m", "app.cli", "users", "add", f"ann-{uuid.uuid4().hex[:6]}"),
            *("--role", role),
        ],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}}
        | {"KGRADE_HOME": str(s.home)},
        capture_output=True,
        text=True,
        check=True,
    )
    return add.stdout.strip().splitlines()[-1]


@pytest.mark.timeout(600)
def test_a_killed_worker_is_back_and_every_submission_ends_once(serve: Serve) -> None:
    s = serve
    wait_for(lambda: s.worker() is not None and s.seen(), 180, "serve's worker to be ready")
    headers = {"Authorization": f"Bearer {_token(s)}"}
    accepted = []
    for _ in range(SUBMISSIONS):
        r = httpx.post(
            f"{s.url}/api/submissions",
            headers=headers,
            json={"checkpoint": "c3a-vector-add", "source": f"{VECTOR_ADD}\n# {uuid.uuid4()}\n"},
            timeout=30,
        )
        assert r.status_code == 201, r.text
        accepted.append(int(r.json()["id"]))

    def running() -> int | None:
        return next((i for i, r in s.rows().items() if r[0] == "running"), None)

    wait_for(running, 90, "a grading to start")
    in_flight = running()
    old = s.worker()
    assert old is not None and in_flight is not None
    left = descendants(old)  # its pool process, its beat, the sandbox of the grading
    assert left, "the worker has no pool process"
    os.kill(old, signal.SIGKILL)  # the worker alone, as a crash would: not its group
    killed_at = time.monotonic()

    wait_for(lambda: s.worker() not in (None, old), 10, "the worker to be started again")
    wait_for(lambda: not any(alive(p) for p in left), 10, "what the dead worker left to go")
    new = s.worker()
    wait_for(lambda: f"{socket.gethostname()}:{new}" in s.seen(), 60, "the new worker ready")
    print(f"new worker ready {time.monotonic() - killed_at:.1f} s after the kill")

    # the lease (30 s) runs out, the reconciler re-sends the grading in flight, and the four
    # gradings run one after another: each up to ~35 s on a loaded 2-core CI machine since
    # problem.py has a sandbox of its own (issue 32), so 90 s once was not enough
    wait_for(
        lambda: all(r[0] == "done" for r in s.rows().values()),
        max(1.0, 200 - (time.monotonic() - killed_at)),
        f"every submission to end within 200 s of the kill\n{s.said()}",
        1.0,
    )
    first = s.rows()
    time.sleep(8)  # a second result (a redelivery, a resend) would show by now
    rows = s.rows()
    assert sorted(rows) == sorted(accepted), "submissions lost or added"
    for i, r in rows.items():
        assert r[:3] == ("done", "done", "correct"), (i, r)
        assert r[3] == first[i][3], f"{i}: result written twice"
    assert rows[in_flight][4] == 2, "the grading in flight was not run again"
    for i in accepted:  # and the student sees it so
        got = httpx.get(f"{s.url}/api/submissions/{i}", headers=headers, timeout=10).json()
        assert (got["status"], got["result"]["verdict"]) == ("done", "correct")

    tree = [s.proc.pid, *descendants(s.proc.pid)]
    os.kill(s.proc.pid, signal.SIGINT)  # Ctrl-C
    assert s.proc.wait(timeout=60) == 0, s.said()
    assert [p for p in tree if alive(p)] == [], ("processes outlived Ctrl-C", s.said())
    assert with_home(s.home) == [], ("processes outlived Ctrl-C", s.said())


def test_sigterm_mid_grading_stops_the_api_worker_pool_and_sandbox(serve: Serve) -> None:
    s = serve
    wait_for(lambda: s.worker() is not None and s.seen(), 180, "serve's worker to be ready")
    headers = {"Authorization": f"Bearer {_token(s)}"}
    r = httpx.post(
        f"{s.url}/api/submissions",
        headers=headers,
        json={"checkpoint": "c3a-vector-add", "source": VECTOR_ADD},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    wait_for(lambda: any(r[0] == "running" for r in s.rows().values()), 90, "the grading")
    tree = [s.proc.pid, *descendants(s.proc.pid)]
    assert len(tree) >= 4, tree  # serve, the API, the worker, its pool (and beat, sandbox)
    os.kill(s.proc.pid, signal.SIGTERM)
    assert s.proc.wait(timeout=60) == 0, s.said()
    assert [p for p in tree if alive(p)] == [], ("processes outlived SIGTERM", s.said())
    assert with_home(s.home) == [], ("processes outlived SIGTERM", s.said())

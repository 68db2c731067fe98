"""The Celery application is built once, safely: concurrent first submissions at a fresh API
process (the embedded default: SQLite and its SQLite broker) are each admitted, none a 500.

Before, `celery_app()` was an `lru_cache`d function whose body imported Celery: threads that
entered it together raced on the half-imported package (`ImportError: cannot import name
'Celery'`), 8 of 40 first submissions got a 500."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "reference_kernels/c3a_vector_add/reference.py").read_text()
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _kgrade(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def _listening(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:  # the port only: /api/health would build the app first
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError("the API never listened")


def test_concurrent_first_submissions_are_all_admitted(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env.update(KGRADE_HOME=str(tmp_path / "home"), KGRADE_PORT=str(port))
    env["KGRADE_SUBMISSIONS_PER_HOUR"] = "1000"
    _kgrade(env, "migrate")
    tokens = [_kgrade(env, "users", "add", f"s{i}").strip().splitlines()[-1] for i in range(4)]
    log = (tmp_path / "api.log").open("wb")
    api = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "api", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _listening(port, time.monotonic() + 60)
        n = 40
        barrier = threading.Barrier(n)
        statuses: list[int] = []

        def submit(i: int) -> None:
            with httpx.Client(timeout=60) as c:
                barrier.wait()
                r = c.post(
                    f"http://127.0.0.1:{port}/api/submissions",
                    headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"},
                    json={"checkpoint": "c3a-vector-add", "source": SOURCE},
                )
                statuses.append(r.status_code)

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(90)
        said = (tmp_path / "api.log").read_text(errors="replace")[-3000:]
        assert sorted(statuses) == [201] * n, (sorted(statuses), said)
        assert "ImportError" not in said, said
    finally:
        api.terminate()
        try:
            api.wait(20)
        except subprocess.TimeoutExpired:
            api.kill()
            api.wait(10)


BUILT_ONCE = """
import threading, time
import celery
made = []
real = celery.Celery.__init__
def slow(self, *a, **k):
    made.append(1)
    time.sleep(0.3)  # widens the window in which a second thread may come in
    real(self, *a, **k)
celery.Celery.__init__ = slow
from app.jobs.celery_app import celery_app
apps = []
threads = [threading.Thread(target=lambda: apps.append(celery_app())) for _ in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(made), len({id(a) for a in apps}))
"""


def test_threads_that_come_in_together_build_one_application(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env.update(KGRADE_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", BUILT_ONCE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1"], done.stdout

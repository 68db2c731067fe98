"""`kgrade serve` with nothing set: SQLite and the embedded broker under KGRADE_HOME, one worker,
all stopped by Ctrl-C. (The embedded default is the only place SQLite is tested.)"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.procs import alive, descendants, with_home

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_grades_with_nothing_configured(tmp_path: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env.update(KGRADE_HOME=str(tmp_path / "home"), KGRADE_PORT=str(port))
    kgrade = [sys.executable, "-m", "app.cli"]
    # To a file, not a pipe nobody reads: a full pipe would stall the server (a flake seen once).
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [*kgrade, "serve"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def said() -> str:
        return (tmp_path / "serve.log").read_text(errors="replace")[-3000:]

    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        health: dict = {}  # type: ignore[type-arg]
        while time.monotonic() < deadline:
            try:
                health = httpx.get(f"{url}/api/health", timeout=2).json()
                if health.get("workers"):
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        assert health.get("database") == "ok" and health.get("workers"), (health, said())
        assert (tmp_path / "home" / "kgrade.db").exists() and (
            tmp_path / "home" / "broker.db"
        ).exists()

        add = subprocess.run(
            [*kgrade, "users", "add", "ann"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        token = add.stdout.strip().splitlines()[-1]
        submit = subprocess.run(
            [
                *kgrade,
                "submit",
                "reference_kernels/c3a_softmax/reference.py",
                "-c",
                "c3a-softmax",
                "--wait",
                "--json",
            ],
            cwd=ROOT,
            env={**env, "KGRADE_URL": url, "KGRADE_TOKEN": token},
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert submit.returncode == 0, (submit.stderr, said())
        result = json.loads(submit.stdout)
        assert (result["verdict"], result["level"]) == ("correct", 2)
        # /metrics on SQLite and the embedded broker, from this host (loopback: no token)
        scrape = httpx.get(f"{url}/metrics", timeout=10)
        assert scrape.status_code == 200, scrape.text
        lines = set(scrape.text.splitlines())
        assert 'kgrade_gradings_total{stage="precheck",verdict="correct"} 1.0' in lines
        assert 'kgrade_stage_duration_seconds_count{stage="precheck"} 1.0' in lines
        assert "kgrade_broker_up 1.0" in lines
        assert 'kgrade_queue_depth{queue="precheck"} 0.0' in lines  # taken and done
    finally:
        # serve's API and worker run in process groups of their own (its supervisor's): the
        # whole tree is checked below, not only serve's group
        tree = [server.pid, *descendants(server.pid)]
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            raise
    for _ in range(20):  # the worker's warm shutdown may take a moment after the server's
        leftover = subprocess.run(["pgrep", "-g", str(server.pid)], capture_output=True, text=True)
        if not leftover.stdout.strip():
            break
        time.sleep(0.5)
    assert leftover.stdout.strip() == "", ("processes outlived Ctrl-C", said())
    assert [p for p in tree if alive(p)] == [], ("processes outlived Ctrl-C", said())
    assert with_home(tmp_path / "home") == [], ("processes outlived Ctrl-C", said())

"""Shared by the CPU benchmarks: the machine's state, own databases, percentiles, result files.

The PostgreSQL and Redis on a shared machine are used only through databases these scripts
create (and drop) themselves and a Redis database index of their own.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PY = sys.executable
PG_ADMIN = os.environ.get("KGRADE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_BASE = os.environ.get("KGRADE_BENCH_REDIS", "redis://127.0.0.1:6379")
DATE = dt.datetime.now(dt.UTC).date().isoformat()  # results are named by the day they ran


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def loadavg() -> list[float]:
    return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]


def machine() -> dict[str, Any]:
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "kernel": platform.release(),
        "uptime": uptime(),
        "loadavg": loadavg(),
        "git": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
    }


def sqlalchemy_url(dbname: str) -> str:
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    return f"{base}/{dbname}"


def libpq_url(dbname: str) -> str:
    return f"{PG_ADMIN.rsplit('/', 1)[0]}/{dbname}"


def create_db(name: str) -> None:
    assert name.startswith("kgrade_bench_"), name
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_db(name: str) -> None:
    assert name.startswith("kgrade_bench_"), name
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(db_url: str, code_dir: Path = ROOT, home: Path | None = None) -> None:
    """Build the database with the Alembic migrations of the code in code_dir."""
    env = {**os.environ, "KGRADE_DATABASE_URL": db_url}
    if home is not None:
        env["KGRADE_HOME"] = str(home)
    subprocess.run(
        [PY, "-c", "from app.cli.service_cmd import migrate; migrate()"],
        cwd=code_dir,
        env=env,
        check=True,
    )


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of values; nan when empty."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * len(s) + 0.5) - 1))
    return s[k]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its reaped children (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_pids(pid: int) -> list[int]:
    """pid and all its live descendants (from /proc/PID/task/TID/children)."""
    out = [pid]
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            for child in children.read_text().split():
                out += tree_pids(int(child))
    return out


def tree_cpu(pid: int) -> float:
    total = 0.0
    for p in tree_pids(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(p)
    return total


def write(name: str, data: dict[str, Any], text: str) -> tuple[Path, Path]:
    """Write results/DATE-cpu-NAME.json and .txt (the text starts with the machine's state)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = RESULTS / f"{DATE}-cpu-{name}"
    data = {"benchmark": name, "written": dt.datetime.now(dt.UTC).isoformat(), **data}
    stem.with_suffix(".json").write_text(json.dumps(data, indent=2, default=str) + "\n")
    stem.with_suffix(".txt").write_text(text.rstrip() + "\n")
    return stem.with_suffix(".json"), stem.with_suffix(".txt")


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if predicate():
                return
        except Exception:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"timed out waiting for {what}")


def export_rev(rev: str, dest: Path) -> None:
    """The tree of git revision rev, without touching the working tree or the index."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev], cwd=ROOT, check=True, capture_output=True
    ).stdout
    dest.mkdir(parents=True)
    tar = dest / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(dest, filter="data")
    tar.unlink()


class TreeCPU:
    """CPU seconds of this process's descendants while the block runs, sampled every 20 ms.

    A sandbox's processes are reaped inside their own PID namespace, so RUSAGE_CHILDREN never
    sees them; each descendant's own utime + stime is read from /proc instead, and the last
    reading before it exits is kept (so at most ~20 ms a process is missed)."""

    def __init__(self, root: int | None = None) -> None:
        self.root = root or os.getpid()
        self.seen: dict[tuple[int, str], float] = {}
        self._stop = threading.Event()
        self.overhead = 0.0

    def _sample(self) -> None:
        for pid in tree_pids(self.root)[1:]:
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{pid}/stat").read_text()
                fields = stat.rsplit(")", 1)[1].split()
                key = (pid, fields[19])  # pid and start time: pids get reused
                ticks = int(fields[11]) + int(fields[12])
                self.seen[key] = ticks / os.sysconf("SC_CLK_TCK")

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self._sample()
        self.overhead = time.thread_time()  # the sampler's own CPU, for the caller to subtract

    def __enter__(self) -> TreeCPU:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())

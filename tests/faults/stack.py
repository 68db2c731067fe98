"""Private Redis and PostgreSQL servers, and real Celery workers, that a test may kill and restart.

Nothing here touches the machine's shared PostgreSQL or Redis: each server is a child process
on a free port with its data in a temporary folder, gone at the end. Shared by the fault tests
(`tests/faults/`) and the load script (`benchmarks/load_burst.py`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path(os.environ.get("KGRADE_PG_BIN", "/usr/lib/postgresql/15/bin"))
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(pred: Callable[[], object], timeout: float, what: str, every: float = 0.2) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pred():
                return
        except Exception:  # a service being restarted: ask again
            pass
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class PrivateRedis:
    """A redis-server of our own. `appendonly=True` persists every write to an append-only file,
    as docker-compose.yml does in production, so a restart keeps the queues; `False` (`--save ''
    --appendonly no`) loses everything on a restart: the worst case for the broker."""

    def __init__(self, workdir: Path, appendonly: bool = False):
        self.dir = workdir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.appendonly = appendonly
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        argv = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        argv += ["--dir", str(self.dir), "--maxmemory-policy", "noeviction"]
        argv += ["--appendonly", "yes" if self.appendonly else "no"]
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 - kept open by the child
        self.proc = subprocess.Popen(argv, stdout=log, stderr=log, start_new_session=True)
        log.close()
        wait_for(lambda: self.client().ping(), 20, f"redis on port {self.port}", 0.05)

    def client(self, db: int = 0):  # type: ignore[no-untyped-def]
        import redis

        return redis.Redis.from_url(self.url(db), socket_timeout=2)

    def kill(self) -> None:
        """A crash: SIGKILL, no shutdown save."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        wait_for(lambda: not _answers(self.port), 10, "redis to go away", 0.05)

    def stop(self) -> None:
        self.kill()
        self.proc = None


class PrivatePostgres:
    """A PostgreSQL cluster of our own (initdb into a temporary folder owned by postgres, trust
    auth on 127.0.0.1, a free port), started and stopped with pg_ctl as the postgres user."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="kgrade-pg-"))
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.port = free_port()
        self._as_postgres(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        )
        with open(self.data / "postgresql.conf", "a") as f:
            f.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.dir}'\nfsync = off\nmax_connections = 200\n"
            )
        self.start()
        self._as_postgres(
            [
                str(PG_BIN / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-q",
                "-c",
                "CREATE DATABASE kgrade",
            ]
        )

    def _as_postgres(self, argv: list[str]) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *argv],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.dir,
        )

    def url(self, db: str = "kgrade") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        log = str(self.dir / "postgres.log")
        self._as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", log, "-w", "start"])

    def stop(self, mode: str = "fast") -> None:
        """`fast`: active transactions are rolled back and clients disconnected; `immediate`:
        a crash (recovery on the next start)."""
        self._as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class Workers:
    """Real Celery precheck workers, started with kgrade's own command line (worker_argv), each
    in its own process group so that a SIGKILL takes the worker, its pool and its sandbox."""

    def __init__(self, env: dict[str, str], logdir: Path):
        self.env, self.logdir = env, logdir
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(
        self, beat: bool = False, queues: tuple[str, ...] = ("precheck",), **env: str
    ) -> subprocess.Popen[bytes]:
        """A worker serving `queues`, with `env` added to its environment."""
        from app.cli.host import worker_argv
        from app.settings import get_settings

        saved = dict(os.environ)
        os.environ.update(self.env)  # worker_argv reads the settings (beat's file in KGRADE_HOME)
        get_settings.cache_clear()
        try:
            argv = worker_argv(list(queues), beat=beat)
        finally:
            os.environ.clear()
            os.environ.update(saved)
            get_settings.cache_clear()
        log = open(self.logdir / f"worker-{len(self.procs)}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env={**os.environ, **self.env, **env},
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        log.close()
        self.procs.append(proc)
        return proc

    @staticmethod
    def name(proc: subprocess.Popen[bytes]) -> str:
        """The `claimed_by` of the rows this worker holds (host:pid of its main process)."""
        return f"{socket.gethostname()}:{proc.pid}"

    @staticmethod
    def kill(proc: subprocess.Popen[bytes]) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def stop_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

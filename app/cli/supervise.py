"""A small process supervisor: `kgrade serve` (the API and its worker) and `kgrade worker --gpu
all` (one worker per GPU) run their processes under it.

Each program runs in a process group of its own. One that dies (an exit or a signal) while we
are not stopping has its whole group killed (a Celery worker's pool process and embedded beat,
which would otherwise run on without it) and is started again: at once the first time, then
after a delay that doubles while it keeps dying within `min_uptime` of its start (up to
`max_delay`); where `max_quick_failures` is set, one that dies that quickly so many times in a
row is given up on and everything stops (`kgrade serve` with its port in use: restarting cannot
help). SIGINT or
SIGTERM stops everything: SIGTERM to each program (a Celery worker then finishes the task in
hand, uvicorn its requests), SIGKILL to each group after `grace` seconds or at a second signal.
This process is a child subreaper, so a descendant that left its group (a sandbox starts a
session of its own) and lost its parent is reparented here and killed too: nothing outlives it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

PR_SET_CHILD_SUBREAPER = 36
TICK = 0.1  # seconds between looks at the children


@dataclass(frozen=True)
class Program:
    name: str
    argv: list[str]
    env: Mapping[str, str] | None = None  # the whole environment; None: ours
    cwd: Path | None = None


@dataclass
class _Running:
    program: Program
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    quick_failures: int = 0
    restart_at: float | None = None  # when it is due to start again, after a death


def _log(line: str) -> None:
    print(f"kgrade supervisor: {line}", file=sys.stderr, flush=True)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return f"killed by {signal.Signals(sig).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


@dataclass
class Supervisor:
    programs: list[Program]
    grace: float = 30.0
    first_delay: float = 0.5
    max_delay: float = 30.0
    min_uptime: float = 10.0
    max_quick_failures: int | None = 5  # None: never give up (retry every max_delay)
    log: Callable[[str], None] = _log
    _running: list[_Running] = field(default_factory=list)
    _stop_signals: int = 0
    _failed: str | None = None

    def run(self) -> int:
        """Start every program and keep them running until SIGINT or SIGTERM (0), or until one
        cannot be kept running (1). Everything started is gone when this returns."""
        with contextlib.suppress(OSError, AttributeError):  # not Linux: no subreaper
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            self._running = [_Running(p) for p in self.programs]
            for r in self._running:
                self._start(r)
            while not self._stop_signals and self._failed is None:
                self._reap()
                self._restart_due()
                time.sleep(TICK)
            self._stop_all()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
        if self._failed is not None:
            self.log(self._failed)
            return 1
        return 0

    def _on_signal(self, signum: int, _: FrameType | None) -> None:
        self._stop_signals += 1

    def _start(self, r: _Running) -> None:
        r.restart_at = None
        r.proc = subprocess.Popen(
            r.program.argv,
            env=None if r.program.env is None else dict(r.program.env),
            cwd=r.program.cwd,
            process_group=0,
        )
        r.started = time.monotonic()
        self.log(f"{r.program.name} started (pid {r.proc.pid})")

    def _reap(self) -> None:
        """Collect every child that ended: ours, and orphans reparented here (killed already or
        dying; reaped so that none stays a zombie)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            r = next((r for r in self._running if r.proc is not None and r.proc.pid == pid), None)
            if r is not None:
                self._ended(r, status)

    def _ended(self, r: _Running, status: int) -> None:
        assert r.proc is not None
        r.proc.returncode = os.waitstatus_to_exitcode(status)
        _killpg(r.proc.pid, signal.SIGKILL)  # what it leaves behind: its pool, its beat
        if self._stop_signals:
            return
        quick = time.monotonic() - r.started < self.min_uptime
        r.quick_failures = r.quick_failures + 1 if quick else 0
        name = f"{r.program.name} (pid {r.proc.pid}) {_describe(status)}"
        r.proc = None
        if self.max_quick_failures is not None and r.quick_failures >= self.max_quick_failures:
            self._failed = (
                f"{name}: it died {r.quick_failures} times in a row, each within "
                f"{self.min_uptime:.0f} s of its start; stopping everything"
            )
            return
        delay = 0.0 if r.quick_failures == 0 else self.first_delay * 2 ** (r.quick_failures - 1)
        delay = min(delay, self.max_delay)
        self.log(f"{name}; starting it again in {delay:.1f} s")
        r.restart_at = time.monotonic() + delay

    def _restart_due(self) -> None:
        now = time.monotonic()
        for r in self._running:
            if r.proc is None and r.restart_at is not None and r.restart_at <= now:
                self._start(r)

    def _alive(self) -> list[_Running]:
        return [r for r in self._running if r.proc is not None and r.proc.returncode is None]

    def _stop_all(self) -> None:
        alive = self._alive()
        if alive:
            self.log(f"stopping {', '.join(r.program.name for r in alive)}")
        for r in alive:
            assert r.proc is not None
            with contextlib.suppress(ProcessLookupError):
                r.proc.send_signal(signal.SIGTERM)
        signals_seen = self._stop_signals
        deadline = time.monotonic() + self.grace
        while self._alive() and time.monotonic() < deadline:
            if self._stop_signals > signals_seen:  # asked again: no more waiting
                break
            self._reap()
            time.sleep(TICK)
        for r in self._alive():
            assert r.proc is not None
            self.log(f"{r.program.name} (pid {r.proc.pid}) still running: SIGKILL")
            _killpg(r.proc.pid, signal.SIGKILL)
        while self._alive():
            self._reap()
            time.sleep(TICK)
        self._kill_orphans()

    def _kill_orphans(self) -> None:
        """Kill and reap whatever was reparented here, until nothing is left."""
        while kids := _children(os.getpid()):
            for pid in kids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(TICK)
            self._reap()


def _killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                out += [int(k) for k in (task / "children").read_text().split()]
    return out

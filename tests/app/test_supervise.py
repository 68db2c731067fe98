"""The process supervisor (`app/cli/supervise.py`) on plain commands: real processes, real
signals. The supervisor runs in a process of its own (it installs signal handlers and becomes a
subreaper), driven by a few lines of Python; the programs are shell commands that leave
children behind the way a Celery worker leaves its pool and beat, or a sandbox its session."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.faults.stack import wait_for
from tests.procs import alive, children, cmdline, descendants

ROOT = Path(__file__).resolve().parents[2]
DRIVER = """
import json, sys
from app.cli.supervise import Program, Supervisor
spec = json.loads(sys.argv[1])
programs = [Program(name, argv) for name, argv in spec["programs"]]
sys.exit(Supervisor(programs, **spec["options"]).run())
"""


class Run:
    def __init__(self, proc: subprocess.Popen[str], log: Path):
        self.proc, self.logfile = proc, log

    def log(self) -> str:
        return self.logfile.read_text()

    def children(self) -> list[int]:
        return children(self.proc.pid)

    def tree(self) -> list[int]:
        return descendants(self.proc.pid)

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def wait(self, timeout: float = 60) -> int:
        return self.proc.wait(timeout=timeout)


@pytest.fixture
def supervise(tmp_path: Path) -> Iterator[Callable[..., Run]]:
    runs: list[Run] = []

    def start(programs: list[tuple[str, list[str]]], **options: object) -> Run:
        log = tmp_path / f"supervisor-{len(runs)}.log"
        spec = json.dumps({"programs": programs, "options": options})
        with log.open("w") as out:
            proc = subprocess.Popen(
                [sys.executable, "-c", DRIVER, spec],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
        runs.append(Run(proc, log))
        return runs[-1]

    yield start
    for r in runs:  # a failed test leaves nothing running either
        with contextlib.suppress(ProcessLookupError):
            os.killpg(r.proc.pid, signal.SIGKILL)
        for pid in r.tree():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        r.proc.wait()


# A program that leaves a child in its process group (as a Celery worker its pool and beat),
# and one whose child escapes into a session of its own (as bubblewrap's --new-session).
WITH_CHILD = ["sh", "-c", "sleep 1000 & exec sleep 1001"]
WITH_ESCAPEE = ["sh", "-c", "setsid sleep 1002 & exec sleep 1003"]


def _find(run: Run, *argv: str) -> list[int]:
    return [p for p in run.tree() if cmdline(p) == list(argv) and alive(p)]


def test_a_killed_program_is_restarted_and_what_it_left_is_killed(supervise) -> None:  # type: ignore[no-untyped-def]
    run = supervise([("worker", WITH_CHILD), ("other", ["sleep", "1004"])])
    wait_for(
        lambda: all(_find(run, "sleep", n) for n in ("1000", "1001", "1004")), 30, "the programs"
    )  # both programs (found in CI: the other one was not yet started when read)
    [leader] = _find(run, "sleep", "1001")
    [left] = _find(run, "sleep", "1000")
    [other] = _find(run, "sleep", "1004")
    os.kill(leader, signal.SIGKILL)
    wait_for(lambda: not alive(left), 10, "the killed program's child to be killed")
    wait_for(lambda: len(_find(run, "sleep", "1001")) == 1, 10, "the program to be back")
    assert _find(run, "sleep", "1001") != [leader]
    assert _find(run, "sleep", "1004") == [other]  # the other program was left alone
    assert "worker (pid" in run.log() and "killed by SIGKILL; starting it again in" in run.log()
    tree = run.tree()
    run.signal(signal.SIGTERM)
    assert run.wait() == 0
    assert [p for p in tree if alive(p)] == []


def test_a_program_that_exits_is_restarted_too(supervise, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    marker = tmp_path / "starts"
    run = supervise(
        [("once", ["sh", "-c", f"echo x >> {marker}; sleep 0.2; exit 3"])], max_quick_failures=None
    )
    wait_for(lambda: marker.exists() and len(marker.read_text().split()) >= 3, 30, "three starts")
    run.signal(signal.SIGINT)
    assert run.wait() == 0
    log = run.log()
    assert "exit status 3; starting it again in 0.5 s" in log  # dying at once: backoff
    assert "exit status 3; starting it again in 1.0 s" in log


def test_one_that_keeps_dying_at_once_is_given_up_and_everything_stops(supervise) -> None:  # type: ignore[no-untyped-def]
    run = supervise(
        [("broken", ["sh", "-c", "exit 1"]), ("fine", WITH_CHILD)],
        max_quick_failures=3,
        first_delay=0.05,
    )
    assert run.wait() == 1
    log = run.log()
    assert "broken (pid" in log and "died 3 times in a row" in log and "stopping everything" in log
    assert log.count("broken started") == 3
    assert not [p for p in run.tree() if alive(p)]


def test_sigterm_stops_every_program_and_what_they_started(supervise) -> None:  # type: ignore[no-untyped-def]
    run = supervise([("a", WITH_CHILD), ("b", WITH_ESCAPEE)], grace=5)
    wait_for(lambda: _find(run, "sleep", "1002") and _find(run, "sleep", "1003"), 30, "both")
    escapee = _find(run, "sleep", "1002")[0]
    # it left b's process group: bubblewrap's --new-session does the same
    assert os.getpgid(escapee) != os.getpgid(_find(run, "sleep", "1003")[0])
    tree = run.tree()
    assert len([p for p in tree if alive(p)]) >= 4
    run.signal(signal.SIGTERM)
    assert run.wait() == 0
    assert [p for p in tree if alive(p)] == []
    assert "stopping a, b" in run.log()


def test_an_orphan_that_left_its_group_is_killed_when_its_program_dies(supervise) -> None:  # type: ignore[no-untyped-def]
    """Its program's group is killed, but it is in none of it: as a subreaper the supervisor
    gets it back and kills it at the stop (a sandbox dies with its parent by itself)."""
    run = supervise([("b", WITH_ESCAPEE)], grace=5)
    wait_for(lambda: _find(run, "sleep", "1002") and _find(run, "sleep", "1003"), 30, "both")
    [escapee] = _find(run, "sleep", "1002")
    [leader] = _find(run, "sleep", "1003")
    os.kill(leader, signal.SIGKILL)
    wait_for(lambda: escapee in run.children(), 10, "the orphan to be reparented to the supervisor")
    run.signal(signal.SIGTERM)
    assert run.wait() == 0
    assert not alive(escapee)


def test_a_program_that_ignores_sigterm_is_killed_after_the_grace(supervise) -> None:  # type: ignore[no-untyped-def]
    stubborn = ["sh", "-c", "trap '' TERM; sleep 1005 & wait; wait"]
    run = supervise([("stubborn", stubborn)], grace=1)
    wait_for(lambda: _find(run, "sleep", "1005"), 30, "the program")
    tree = run.tree()
    run.signal(signal.SIGTERM)
    assert run.wait() == 0
    assert "stubborn (pid" in run.log() and "still running: SIGKILL" in run.log()
    assert [p for p in tree if alive(p)] == []


def test_a_second_ctrl_c_does_not_wait_for_the_grace(supervise) -> None:  # type: ignore[no-untyped-def]
    stubborn = ["sh", "-c", "trap '' TERM INT; sleep 1006 & wait; wait"]
    run = supervise([("stubborn", stubborn)], grace=600)
    wait_for(lambda: _find(run, "sleep", "1006"), 30, "the program")
    run.signal(signal.SIGINT)
    wait_for(lambda: "stopping stubborn" in run.log(), 10, "the stop to begin")
    run.signal(signal.SIGINT)
    assert run.wait(timeout=30) == 0  # not the 600 s grace
    assert "still running: SIGKILL" in run.log()

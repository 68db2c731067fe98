"""Processes below a process, from /proc (the tests that look at what a worker or a grading
started)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children first; those gone meanwhile are skipped."""
    out: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:  # gone meanwhile
        return out
    for task in tasks:
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            out += [int(kid), *descendants(int(kid))]
    return out


def harness_pids(pids: list[int]) -> list[int]:
    """Those of `pids` that are sandboxed children: Python running the grader's harness
    (bubblewrap's own command line names child.py too, and is left out)."""
    out = []
    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile
            continue
        if Path(argv[0].decode()).name.startswith("python") and any(
            a.endswith(b"child.py") for a in argv
        ):
            out.append(pid)
    return out


def alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped, is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def children(pid: int) -> list[int]:
    """The direct children of `pid`'s main thread."""
    try:
        return [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def with_home(home: Path) -> list[int]:
    """Every live process whose environment has KGRADE_HOME=home: whatever a kgrade command
    started, whoever its parent is now (a sandbox clears its environment, and is found as a
    descendant instead)."""
    needle = f"KGRADE_HOME={home}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            env = (proc / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if needle in env and alive(int(proc.name)):
            found.append(int(proc.name))
    return found


def start_kgrade(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`kgrade ARGS` in a session of its own, its output to `log` (a file, not a pipe nobody
    reads: a full pipe would stall it)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "app.cli", *args],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=out,
            stderr=subprocess.STDOUT,
        )

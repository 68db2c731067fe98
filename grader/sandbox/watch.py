"""Watching a sandboxed child from the parent (split from bwrap.py): its process tree (read
from /proc), its memory and wall clock against its limits, and its end (the tree killed and
waited for, the cgroup's own count of memory read)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from typing import TYPE_CHECKING

from grader.sandbox import cgroup

if TYPE_CHECKING:
    from grader.sandbox.bwrap import Limits, RunOutcome

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree(root: int) -> list[int]:
    """`root` and every process below it. Walks the tree's own /proc/PID/task/TID/children
    files: a few reads, where scanning all of /proc read every process's stat (every 50 ms
    for each running child). Falls back to the scan where the kernel lacks those files."""
    found: list[int] = []
    todo = [root]
    try:
        while todo:
            pid = todo.pop()
            found.append(pid)
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except FileNotFoundError:  # gone meanwhile
                continue
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/children", "rb") as fp:
                        todo.extend(int(k) for k in fp.read().split())
                except ProcessLookupError:
                    continue
                except FileNotFoundError:
                    if os.path.exists(f"/proc/{pid}/task/{tid}"):
                        raise NoChildrenFiles from None
        return found
    except NoChildrenFiles:
        return tree_by_scan(root)


class NoChildrenFiles(Exception):
    """This kernel has no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN off)."""


def tree_by_scan(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as fp:
                stat = fp.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm", "rb") as fp:
                total += int(fp.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    return total


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    pids = tree(proc.pid)
    for pid in reversed(pids):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def watch(
    proc: subprocess.Popen[bytes],
    limits: Limits,
    outcome: RunOutcome,
    clock: float | None,
    clock_from: threading.Event | None,
    abort: threading.Event | None,
) -> float | None:
    """Until the child exits: its tree's memory and its wall time, each over its limit killed;
    returns when its clock started (None: it never got its job)."""
    while proc.poll() is None:
        if clock is None and clock_from is not None and clock_from.is_set():
            clock = time.monotonic()
        elapsed = time.monotonic() - clock if clock is not None else 0.0
        used = rss(tree(proc.pid))
        outcome.peak_rss = max(outcome.peak_rss, used)
        if abort is not None and abort.is_set():
            kill_tree(proc)
        elif used > limits.memory_bytes:
            outcome.memory_exceeded = True
            kill_tree(proc)
        elif elapsed > limits.wall_seconds:
            outcome.timed_out = True
            kill_tree(proc)
        if clock is None and clock_from is not None:  # waiting for its job: look less often
            clock_from.wait(0.25)
        else:
            time.sleep(0.05)
    return clock


def reap(proc: subprocess.Popen[bytes], group: cgroup.Group | None, outcome: RunOutcome) -> None:
    """The tree killed and waited for; the cgroup's own count of memory and OOM kills."""
    kill_tree(proc)
    proc.wait()
    if proc.stdin is not None:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    if group is not None:  # the kernel's count: pages no process maps included
        if group.oom_killed():
            outcome.memory_exceeded = True
        outcome.peak_rss = max(outcome.peak_rss, group.peak())
        group.remove()

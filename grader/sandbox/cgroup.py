"""A memory cgroup per sandboxed child: memory counted as the kernel counts it.

The RSS watchdog misses pages no process maps (a memfd written with write(), files in a
tmpfs: /tmp, /dev/shm, the capped /cache and /out), and RLIMIT_DATA misses them too. A memory
cgroup charges them all, and its limit is enforced by the kernel's OOM killer, not by polling.

The parent makes one cgroup per child (`kgrade-PID-…` under its own cgroup), the child joins it
between fork and exec (so bwrap and everything below it is in it before anything runs), and the
parent reads afterwards whether the OOM killer acted there, then removes it. cgroup v2 is used
where the memory controller is delegated to us, else cgroup v1's memory hierarchy. Where neither
can be made (not root, no controller, a read-only /sys/fs/cgroup), `hierarchy()` is None and the
RSS watchdog and RLIMIT_DATA are all there is.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

PREFIX = "kgrade-"
V2_MOUNTS = ("/sys/fs/cgroup", "/sys/fs/cgroup/unified")
V1_MOUNT = "/sys/fs/cgroup/memory"


@dataclass(frozen=True)
class Hierarchy:
    version: int  # 1 or 2
    base: Path  # where this process makes its children's cgroups (its own cgroup)


def _own_paths() -> tuple[str | None, str | None]:
    """(v2 path, v1 memory path) of this process, from /proc/self/cgroup."""
    v2 = v1 = None
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controllers == "":
                v2 = path
            elif "memory" in controllers.split(","):
                v1 = path
    return v2, v1


def _candidates() -> list[Hierarchy]:
    v2, v1 = _own_paths()
    found = []
    if v2 is not None:
        for mount in V2_MOUNTS:
            if os.path.exists(f"{mount}/cgroup.controllers"):
                found.append(Hierarchy(2, Path(mount + v2.rstrip("/"))))
    if v1 is not None:
        found.append(Hierarchy(1, Path(V1_MOUNT + v1.rstrip("/"))))  # "/" in a cgroup namespace
    return found


def _usable(h: Hierarchy) -> bool:
    probe = h.base / f"{PREFIX}{os.getpid()}-probe-{secrets.token_hex(4)}"
    try:
        if h.version == 2:
            if "memory" not in (h.base / "cgroup.controllers").read_text().split():
                return False
            control = h.base / "cgroup.subtree_control"
            if "memory" not in control.read_text().split():
                control.write_text("+memory")  # fails (EBUSY) where we are not a leaf's parent
        probe.mkdir()
    except OSError:
        return False
    try:
        limit = "memory.max" if h.version == 2 else "memory.limit_in_bytes"
        return (probe / limit).exists()
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


@functools.lru_cache(maxsize=1)
def hierarchy() -> Hierarchy | None:
    """Where memory cgroups can be made here, or None."""
    for h in _candidates():
        if h.base.is_dir() and _usable(h):
            return h
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(h: Hierarchy) -> list[Path]:
    """Remove the cgroups of gradings whose process is gone (a worker killed mid-grading)."""
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(h.base):
            pid, sep, _ = entry.name.removeprefix(PREFIX).partition("-")
            if entry.name.startswith(PREFIX) and sep and pid.isdigit() and not _alive(int(pid)):
                group = Group.__new__(Group)
                group.h, group.path, group.limit = h, Path(entry.path), 0
                group.remove()
                removed.append(Path(entry.path))
    return removed


class Group:
    """One child's memory cgroup, limited to `limit` bytes (swap included)."""

    def __init__(self, h: Hierarchy, limit: int) -> None:
        self.h, self.limit = h, limit
        sweep(h)
        self.path = h.base / f"{PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        self.path.mkdir()
        try:
            if h.version == 2:
                self._write("memory.max", limit)
                self._write("memory.swap.max", 0, optional=True)
                self._write("memory.oom.group", 1, optional=True)  # the OOM killer takes all
            else:
                self._write("memory.limit_in_bytes", limit)
                self._write("memory.memsw.limit_in_bytes", limit, optional=True)
        except BaseException:
            self.remove()
            raise
        self.procs = str(self.path / "cgroup.procs")

    def _write(self, name: str, value: int, optional: bool = False) -> None:
        try:
            (self.path / name).write_text(str(value))
        except FileNotFoundError:
            if not optional:
                raise

    def _read(self, name: str) -> str:
        try:
            return (self.path / name).read_text()
        except OSError:
            return ""

    def join(self) -> None:
        """Move the calling process into the group: call it between fork and exec."""
        fd = os.open(self.procs, os.O_WRONLY)
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)

    def oom_killed(self) -> bool:
        """Did the kernel's OOM killer act in this group (its limit was reached)?"""
        name = "memory.events" if self.h.version == 2 else "memory.oom_control"
        for line in self._read(name).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value) > 0
        return False

    def peak(self) -> int:
        """The most memory the group held (0 where the kernel does not say)."""
        raw = self._read("memory.peak" if self.h.version == 2 else "memory.max_usage_in_bytes")
        return int(raw) if raw.strip().isdigit() else 0

    def kill_all(self) -> None:
        for pid in self._read("cgroup.procs").split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)

    def remove(self, wait: float = 5.0) -> None:
        """Kill what is left in it and remove it (a group still holding dying tasks is busy
        for a moment)."""
        deadline = time.monotonic() + wait
        while True:
            self.kill_all()
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return  # left for the next sweep
                time.sleep(0.02)


def make(limit: int) -> Group | None:
    """A memory cgroup for one child, or None where none can be made here."""
    h = hierarchy()
    if h is None:
        return None
    try:
        return Group(h, limit)
    except OSError:
        return None


def describe(counted_by: str, folder_cap: int | None) -> str:
    """The grade's `limits` line: what counted this child's memory and capped its folders."""
    if counted_by.startswith("cgroup"):
        memory = f"memory counted by {counted_by} (shared memory and tmpfs files included)"
    else:
        memory = (
            "memory counted by RSS watchdog only (no cgroup here): shared memory is not counted"
        )
    if folder_cap is None:
        return memory + "; /cache and /out not size-capped (no tmpfs mount here)"
    return memory + f"; /cache and /out capped at {folder_cap >> 20} MiB each"

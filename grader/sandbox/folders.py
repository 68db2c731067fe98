"""Size-capped folders on the host: the child's writable /cache and /out.

A bind of host disk has no quota (one grading wrote 1.5 GiB into its Triton cache). Instead,
the parent mounts a tmpfs with `size=` on each folder before the child starts: the child gets
ENOSPC at the cap, the host's disk is never touched, and the parent still reads what the child
wrote there (Nsight reports, the Triton cache kept for the same source) after the child exited,
as plain files. The pages count against the child's memory cgroup (they were charged to the
writer). Mounting needs CAP_SYS_ADMIN (root, as bubblewrap is run in deployment); where it is
refused, `can_cap()` is False and the folders stay plain host folders (the grade says so).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shutil
import stat
import tempfile
from pathlib import Path

MS_NOSUID, MS_NODEV = 2, 4
MNT_DETACH = 2


@functools.lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def mount_tmpfs(folder: Path, size: int) -> bool:
    """Mount a tmpfs of `size` bytes on `folder` (made if missing); False where refused. Exec
    stays allowed: Triton loads the launcher it compiled into its cache."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.path.ismount(folder):
        return True
    opts = f"size={size},mode=0700".encode()
    rc = _libc().mount(b"tmpfs", os.fsencode(folder), b"tmpfs", MS_NOSUID | MS_NODEV, opts)
    return rc == 0


def unmount(folder: Path) -> None:
    _libc().umount2(os.fsencode(folder), MNT_DETACH)


def mounts_under(root: Path) -> list[Path]:
    """Mount points at or below `root`, deepest first (from /proc/self/mountinfo)."""
    top = os.path.realpath(root)
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            point = line.split()[4].encode().decode("unicode_escape")  # \040 for a space
            if point == top or point.startswith(top + "/"):
                found.append(Path(point))
    return sorted(found, key=lambda p: len(p.parts), reverse=True)


def remove(root: Path) -> None:
    """Unmount every capped folder under `root`, then remove it."""
    for point in mounts_under(root):
        unmount(point)
    shutil.rmtree(root, ignore_errors=True)


@functools.lru_cache(maxsize=1)
def can_cap() -> bool:
    """Can size-capped folders be mounted here?"""
    probe = Path(tempfile.mkdtemp(prefix="kgrade-cap-probe-"))
    try:
        ok = mount_tmpfs(probe, 1 << 20)
        if ok:
            unmount(probe)
        return ok
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


def copy_plain(src: Path, dest: Path, owner: int | None = None) -> None:
    """Copy the folders and regular files of `src` into `dest`: no link is followed or copied
    (what a child wrote is untrusted), and the copy is as large as `src`, itself capped.
    `owner`: the uid (and gid) the copies get."""
    for root, dirs, files in os.walk(src, followlinks=False):
        here = dest / os.path.relpath(root, src)
        here.mkdir(parents=True, exist_ok=True)
        if owner is not None:
            os.chown(here, owner, owner)
        for name in files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                with os.fdopen(fd, "rb") as fp:
                    if not stat.S_ISREG(os.fstat(fd).st_mode):
                        continue
                    with open(here / name, "wb") as out:
                        shutil.copyfileobj(fp, out)
                os.chmod(here / name, 0o644)
                if owner is not None:
                    os.chown(here / name, owner, owner)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]

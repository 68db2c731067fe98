"""Run an untrusted command under bubblewrap with resource limits, and watch it.

The sandbox gives the child: a read-only view of the OS (/usr and friends), of the Python
installation and of the harness; the job folder read-only; a private, size-capped /tmp; no
network, no other processes, no host home, no project checkout; an allowlisted environment.
The parent enforces wall time, host memory (a memory cgroup per child where the host allows,
which counts shared memory and tmpfs pages too; else RSS of the whole process tree: RLIMIT_AS
would break CUDA), the number of processes, file sizes and the amount of output it keeps.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from grader.sandbox import cgroup
from grader.sandbox.watch import kill_tree, reap, watch
from grader.text import untrusted

NOBODY = 65534
F_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ from Python 3.10, named here for the type checker
PIPE_BYTES = 1 << 20


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 60.0
    memory_bytes: int = 8 << 30
    max_processes: int = 256  # threads count as processes for the kernel
    output_bytes: int = 64 << 10  # captured stdout+stderr kept for the report
    tmp_bytes: int = 1 << 30
    file_bytes: int = 256 << 20
    result_bytes: int = 4 << 30
    folder_bytes: int = 512 << 20  # each of the writable /cache and /out (job.py)
    memory_cgroup: bool = True  # count memory in a cgroup where the host allows (cgroup.py)


@dataclass
class RunOutcome:
    returncode: int | None = None
    timed_out: bool = False
    memory_exceeded: bool = False
    peak_rss: int = 0
    wall: float = 0.0
    output: str = ""
    output_total: int = 0
    reader_error: str | None = None
    memory_counted_by: str = ""  # "cgroup v1", "cgroup v2" or "RSS watchdog"

    @property
    def signal_name(self) -> str | None:
        code = self.returncode
        if code is not None and code < 0:
            return signal.Signals(-code).name
        if code is not None and 128 < code < 128 + 65:  # bwrap reports its child's signal so
            with contextlib.suppress(ValueError):
                return signal.Signals(code - 128).name
        return None


@dataclass
class Mount:
    host: Path
    inside: str
    writable: bool = False


@dataclass
class Spec:
    argv: list[str]
    env: dict[str, str]
    mounts: list[Mount] = field(default_factory=list)
    gpu: bool = False
    control: bool = False  # the child's stdin is a pipe the parent writes to (turns.py)


class SandboxUnavailable(RuntimeError):
    pass


def _system_binds() -> list[str]:
    args: list[str] = []
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for etc in ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "nsswitch.conf"):
        if os.path.exists(f"/etc/{etc}"):
            args += ["--ro-bind", f"/etc/{etc}", f"/etc/{etc}"]
    return args


def _python_binds() -> list[str]:
    """The interpreter and the packages the harness imports, at their own paths."""
    args: list[str] = []
    seen: set[str] = set()
    for prefix in {sys.base_prefix, sys.prefix, *map(str, _site_dirs())}:
        real = os.path.realpath(prefix)
        for path in {prefix, real}:
            if path in seen or path.startswith("/usr/"):
                continue
            seen.add(path)
            args += ["--ro-bind", real, path]
    return args


def _site_dirs() -> list[Path]:
    import site

    return [Path(p) for p in site.getsitepackages() if os.path.isdir(p)]


def _gpu_binds() -> list[str]:
    args: list[str] = []
    for dev in sorted(Path("/dev").glob("nvidia*")):
        args += ["--dev-bind", str(dev), str(dev)]
    if os.path.isdir("/dev/dri"):
        args += ["--dev-bind", "/dev/dri", "/dev/dri"]
    args += ["--ro-bind", "/sys", "/sys"]
    for extra in ("/run/nvidia-persistenced", "/etc/nvidia"):
        if os.path.exists(extra):
            args += ["--ro-bind", extra, extra]
    return args


def bwrap_argv(spec: Spec, limits: Limits) -> list[str]:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed")
    if os.geteuid() == 0:
        # As root, bwrap mounts with root's rights (it can bind a Python that lives under a
        # 0700 /root), then setpriv becomes the real uid `nobody` with no capabilities, so
        # RLIMIT_NPROC and file permissions hold for everything the submission starts.
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise SandboxUnavailable("setpriv (util-linux) is not installed")
        ids = [
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_SETPCAP",  # setpriv needs it to empty the bounding set
        ]
        drop = [
            setpriv,
            "--reuid",
            str(NOBODY),
            "--regid",
            str(NOBODY),
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    else:
        ids = [
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--uid",
            str(NOBODY),
            "--gid",
            str(NOBODY),
        ]
        drop = []
    args = [
        bwrap,
        *ids,
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "sandbox",
        *_system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(limits.tmp_bytes),
        "--tmpfs",
        "/tmp",
        # After the private /tmp: a checkout or venv under /tmp (a CI clone) stays visible.
        *_python_binds(),
    ]
    for m in spec.mounts:
        args += ["--bind" if m.writable else "--ro-bind", str(m.host), m.inside]
    if spec.gpu:
        args += _gpu_binds()
    args = _with_parents(args)
    args += ["--chdir", "/tmp", "--clearenv"]
    for k, v in spec.env.items():
        args += ["--setenv", k, v]
    return [*args, "--", *drop, *spec.argv]


def _with_parents(args: list[str]) -> list[str]:
    """bwrap creates missing parents of a mount point with mode 0700, which `nobody` cannot
    traverse: create each one first, world-traversable, right before the first mount that
    needs it (so that parents under /tmp are made inside the private /tmp, not before it)."""
    binds = {"--ro-bind", "--bind", "--dev-bind"}
    targets = {args[i + 2] for i, a in enumerate(args) if a in binds}
    made: set[str] = set()
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--tmpfs":
            made = {d for d in made if not d.startswith(args[i + 1] + "/")}
        if a in binds:
            chain = []
            p = Path(args[i + 2]).parent
            while str(p) not in {"/", "."}:
                chain.append(str(p))
                p = p.parent
            for d in reversed(chain):
                if d not in made and d not in targets:
                    out += ["--perms", "0755", "--dir", d]
                    made.add(d)
            out += args[i : i + 3]
            i += 3
            continue
        out.append(a)
        i += 1
    return out


@functools.lru_cache(maxsize=1)
def probe() -> str | None:
    """None when a sandbox can be made here, else the reason it cannot."""
    if not sys.platform.startswith("linux"):
        return "bubblewrap needs Linux"
    try:
        argv = bwrap_argv(Spec(argv=["/bin/true"], env={}), Limits())
    except SandboxUnavailable as exc:
        return str(exc)
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    if proc.returncode != 0:
        return "bubblewrap cannot create namespaces here: " + proc.stderr.decode()[-300:].strip()
    return None


def _user_process_count(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                continue
    return count


def _limiter(
    limits: Limits, cpu_only: bool, nproc: int, group: cgroup.Group | None
) -> Callable[[], None]:
    def apply() -> None:  # runs in the child between fork and exec: setrlimit only
        if group is not None:  # before bwrap runs: everything it starts is counted there
            group.join()
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
        cpu = int(limits.wall_seconds * 4) + 10
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        if cpu_only:  # the GPU driver maps far more than it uses; there the watchdog rules
            resource.setrlimit(resource.RLIMIT_DATA, (limits.memory_bytes, limits.memory_bytes))

    return apply


def drain(fp: IO[bytes]) -> None:
    """A result reader that reads the pipe to its end and keeps nothing (a child whose frames
    say nothing the parent needs, or one killed unused)."""
    while fp.read(1 << 20):
        pass


def _drain(stream: IO[bytes], keep: int, outcome: RunOutcome) -> None:
    head = bytearray()
    while chunk := stream.read(65536):
        outcome.output_total += len(chunk)
        if len(head) < keep:
            head += chunk[: keep - len(head)]
    outcome.output = untrusted(head.decode("utf-8", "replace"), lines=True)  # grader/text.py


def run(
    spec: Spec,
    limits: Limits,
    read_results: Callable[[IO[bytes]], None],
    *,
    sandboxed: bool = True,
    clock_from: threading.Event | None = None,
    abort: threading.Event | None = None,
    on_start: Callable[[subprocess.Popen[bytes]], None] | None = None,
) -> RunOutcome:
    """Run spec.argv; `read_results` consumes the child's result pipe (fd passed as the
    placeholder `{RESULT_FD}` in argv). Returns when the child and its tree are gone.
    `clock_from`: the wall-clock limit counts from when it is set (the child was started
    early and waits for its job until then; `wall` then counts from there too); `abort`: set
    it to kill the child at once; `on_start`: called with the process once it is started."""
    r_fd, w_fd = os.pipe()
    widen(w_fd)
    argv = [a.replace("{RESULT_FD}", str(w_fd)) for a in spec.argv]
    spec = Spec(argv=argv, env=spec.env, mounts=spec.mounts, gpu=spec.gpu, control=spec.control)
    outcome = RunOutcome()
    group = cgroup.make(limits.memory_bytes) if limits.memory_cgroup else None
    outcome.memory_counted_by = f"cgroup v{group.h.version}" if group else "RSS watchdog"
    start = time.monotonic()
    proc = _start(spec, limits, sandboxed, (r_fd, w_fd), group)
    if on_start is not None:
        on_start(proc)
    assert proc.stdout is not None
    drain = threading.Thread(target=_drain, args=(proc.stdout, limits.output_bytes, outcome))
    drain.start()
    reader = threading.Thread(target=_consume, args=(r_fd, read_results, proc, outcome))
    reader.start()
    clock: float | None = start if clock_from is None else None
    try:
        clock = watch(proc, limits, outcome, clock, clock_from, abort)
    finally:
        reap(proc, group, outcome)
    outcome.wall = time.monotonic() - (clock if clock is not None else start)
    outcome.returncode = proc.returncode
    reader.join(timeout=30)
    drain.join(timeout=30)
    return outcome


def _start(
    spec: Spec,
    limits: Limits,
    sandboxed: bool,
    fds: tuple[int, int],
    group: cgroup.Group | None,
) -> subprocess.Popen[bytes]:
    """The child started (in bubblewrap unless not `sandboxed`), its limits set between fork
    and exec; the result pipe's write end passed to it and closed here."""
    r_fd, w_fd = fds
    full = bwrap_argv(spec, limits) if sandboxed else spec.argv
    # Inside the sandbox the submission runs as `nobody` when we are root (setpriv), else as
    # our own uid, whose other processes count against RLIMIT_NPROC too.
    uid = NOBODY if sandboxed and os.geteuid() == 0 else os.getuid()
    nproc = limits.max_processes + _user_process_count(uid)
    try:
        proc = subprocess.Popen(
            full,
            stdin=subprocess.PIPE if spec.control else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(w_fd,),
            start_new_session=True,
            env=None if sandboxed else spec.env,
            preexec_fn=_limiter(limits, cpu_only=not spec.gpu, nproc=nproc, group=group),
        )
    except BaseException:
        os.close(w_fd)
        os.close(r_fd)
        if group is not None:
            group.remove()
        raise
    os.close(w_fd)
    if proc.stdin is not None:
        widen(proc.stdin.fileno())
    return proc


def widen(fd: int) -> None:
    """The pipe's buffer at the largest an unprivileged process may set (1 MiB by default,
    against 64 KiB): a tensor of hundreds of MB then crosses in a sixteenth of the wake-ups."""
    with contextlib.suppress(OSError, ValueError):
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        fcntl.fcntl(fd, F_SETPIPE_SZ, min(limit, PIPE_BYTES))


def _consume(
    r_fd: int,
    read_results: Callable[[IO[bytes]], None],
    proc: subprocess.Popen[bytes],
    outcome: RunOutcome,
) -> None:
    """The result pipe, read by `read_results`; a stream it refuses stops the child."""
    with os.fdopen(r_fd, "rb") as fp:
        try:
            read_results(fp)
        except Exception as exc:  # a malformed or oversized stream: stop the child
            outcome.reader_error = str(exc)
            kill_tree(proc)
            drain(fp)

"""The sandbox itself, probed from inside with plain Python (no static checks in the way).

Each test shows the boundary holds by checking from the host that the thing exists or works
there, then that it does not from inside.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from grader.sandbox import bwrap, watch
from grader.sandbox.bwrap import Limits, Mount, RunOutcome, Spec

ROOT = Path(__file__).resolve().parents[2]
TOKEN = f"kgrade-sandbox-test-{uuid.uuid4()}"
pytestmark = pytest.mark.skipif(bwrap.probe() is not None, reason=str(bwrap.probe()))


def inside(
    code: str, limits: Limits | None = None, mounts: list[Mount] | None = None
) -> RunOutcome:
    spec = Spec(
        # The token marks this run's processes (and their forks) in /proc.
        argv=[sys.executable, "-I", "-c", code + f"\n# {TOKEN}"],
        env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", "ALLOWED": "yes"},
        mounts=mounts or [],
    )
    return bwrap.run(spec, limits or Limits(wall_seconds=30), lambda fp: fp.read())


def test_runs_as_an_unprivileged_user() -> None:
    out = inside("import os; print(os.getuid(), os.getgid())")
    assert out.returncode == 0, out.output
    assert out.output.split() == ["65534", "65534"]


def test_has_no_capabilities() -> None:
    out = inside(
        "caps = dict(l.split(':') for l in open('/proc/self/status') if l.startswith('Cap'))\n"
        "print(int(caps['CapEff'], 16), int(caps['CapPrm'], 16), int(caps['CapBnd'], 16))"
    )
    assert out.output.split() == ["0", "0", "0"], out.output


def test_no_network_even_to_loopback_services() -> None:
    # Redis listens on the host's loopback: reachable here, unreachable inside.
    host = socket.create_connection(("127.0.0.1", 6379), timeout=5)
    host.close()
    out = inside(
        "import socket\n"
        "try:\n socket.create_connection(('127.0.0.1', 6379), timeout=3); print('CONNECTED')\n"
        "except OSError as e: print('refused', e)\n"
    )
    assert "refused" in out.output and "CONNECTED" not in out.output


def test_host_files_checkout_and_database_are_invisible(tmp_path: Path) -> None:
    marker = tmp_path / "secret.txt"
    marker.write_text("s3cret")
    paths = [
        str(marker),
        str(ROOT / "pyproject.toml"),
        str(ROOT / "grader"),
        "/var/run/postgresql",
        "/var/lib/postgresql",
        "/etc/shadow",
        "/root/.bashrc",
    ]
    assert marker.exists() and (ROOT / "pyproject.toml").exists()
    out = inside(f"import os; print([os.path.exists(p) for p in {paths!r}])")
    assert out.returncode == 0, out.output
    assert out.output.strip() == str([False] * len(paths))


def test_environment_is_an_allowlist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGRADE_DATABASE_URL", "postgresql://secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hunter2")
    out = inside("import os; print(sorted(os.environ))")
    keys = eval(out.output.strip())  # our own printout of a list of strings
    assert "ALLOWED" in keys
    assert "KGRADE_DATABASE_URL" not in keys and "AWS_SECRET_ACCESS_KEY" not in keys


def test_tmp_is_private_and_the_rest_read_only(tmp_path: Path) -> None:
    before = set(os.listdir("/tmp"))
    job = tmp_path / "job"
    job.mkdir()
    (job / "in.txt").write_text("input")
    out = inside(
        "open('/tmp/x', 'w').write('ok'); print(open('/tmp/x').read())\n"
        "for p in ['/job/new', '/usr/evil', '/evil']:\n"
        "    try:\n        open(p, 'w'); print('WROTE', p)\n"
        "    except OSError: print('denied', p)\n"
        "print(open('/job/in.txt').read())\n",
        mounts=[Mount(job, "/job")],
    )
    assert out.returncode == 0, out.output
    assert "WROTE" not in out.output and out.output.count("denied") == 3
    assert "input" in out.output
    assert not (job / "new").exists()
    # (other tests' gradings, running beside this one, make kgrade-job-… folders of their own)
    mine = {p for p in set(os.listdir("/tmp")) - before if not p.startswith("kgrade-job-")}
    assert mine <= {p for p in os.listdir("/tmp") if "pytest" in p}


def test_fork_bomb_is_bounded_and_cleaned_up() -> None:
    out = inside(
        "import os\n"
        "n = 0\n"
        "for _ in range(5000):\n"
        "    try:\n        pid = os.fork()\n"
        "    except OSError: break\n"
        "    if pid == 0:\n        import time; time.sleep(60); os._exit(0)\n"
        "    n += 1\n"
        "print('forked', n)\n",
        limits=Limits(wall_seconds=20, max_processes=64),
    )
    forked = int(out.output.split()[-1])
    assert forked < 100
    assert not _nobody_processes(), "processes were left behind"


def test_background_processes_do_not_outlive_the_run() -> None:
    out = inside(
        "import os, time\n"
        "if os.fork() == 0:\n    os.setsid(); time.sleep(300); os._exit(0)\n"
        "print('parent exits')\n"
    )
    assert "parent exits" in out.output
    assert not _nobody_processes()


def test_memory_limit_stops_the_child() -> None:
    out = inside(
        "b = bytearray(3 * 2**30)\nprint('ALLOCATED', len(b))\n",
        limits=Limits(wall_seconds=30, memory_bytes=1 << 30),
    )
    assert "ALLOCATED" not in out.output
    assert out.memory_exceeded or "MemoryError" in out.output


def test_output_is_capped() -> None:
    out = inside(
        "import sys\nline = 'x' * 1023 + '\\n'\n"
        "for _ in range(300 * 1024): sys.stdout.write(line)\n",
        limits=Limits(wall_seconds=60, output_bytes=64 << 10),
    )
    assert out.output_total >= 300 * 2**20
    assert len(out.output) <= 64 << 10


def test_wall_time_limit_kills_the_tree() -> None:
    start = time.monotonic()
    out = inside("while True: pass", limits=Limits(wall_seconds=3))
    assert out.timed_out
    assert time.monotonic() - start < 10
    assert not _nobody_processes()


def _nobody_processes(grace: float = 5.0) -> list[str]:
    """This module's sandboxed processes still alive after `grace` seconds (SIGKILL of a pid
    namespace is asynchronous), for the failure message."""
    deadline = time.monotonic() + grace
    while (found := _scan()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def _scan() -> list[str]:
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/cmdline", "rb") as fp:
                cmdline = fp.read()
            with open(f"/proc/{entry.name}/stat") as fp:
                stat = fp.read()
        except OSError:
            continue
        if TOKEN.encode() in cmdline and ") Z " not in stat:  # zombies are already dead
            found.append(stat[:60])
    return found


def test_mounts_under_tmp_survive_the_private_tmp(tmp_path: Path) -> None:
    """Bug seen in CI: a checkout (and its .venv) under /tmp vanished behind the sandbox's own
    /tmp, so the interpreter could not be found. Mounts under /tmp must go on top of it."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "f.txt").write_text("visible")
    target = f"{tmp_path}/inside/data"  # under /tmp, like a CI clone's .venv
    assert target.startswith("/tmp/")
    out = inside(f"print(open('{target}/f.txt').read())", mounts=[Mount(data, target)])
    assert out.returncode == 0, out.output
    assert out.output.strip() == "visible"


def test_python_under_tmp_is_mounted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    args = bwrap._python_binds()
    assert str(tmp_path) in args


def test_a_job_without_the_submission_imports_none_of_it(tmp_path: Path) -> None:
    """The baselines' Nsight profile is measured by such a job: nothing of the student's runs
    in it, so no submission can shape what every later grading is compared with."""
    from grader import checkpoints
    from grader.sandbox import job
    from grader.sandbox.harness import wire

    ck = checkpoints.get("c3a-softmax")
    marker = tmp_path / "imported"
    source = f"open({str(marker)!r}, 'w').write('ran')\n"
    paths = job.Paths(tmp_path / "job", tmp_path / "out", sandboxed=True)
    job.write(paths, source, ck, "cpu", [], [], max_configs=1, with_submission=False)
    assert not (paths.job / "submission.py").exists()
    spec = job.child_spec(paths, ck, "cpu", job.child_env("cpu", paths))
    frames: list[dict[str, object]] = []
    outcome = bwrap.run(
        spec,
        Limits(wall_seconds=60),
        lambda fp: frames.extend(h for h, _ in wire.read_frames(fp, 1 << 20)),
    )
    said = [f.get("name", f["type"]) for f in frames]
    assert said == ["wait", "ready", "start", "done"], (frames, outcome.output)
    assert not marker.exists()


def test_the_process_tree_is_read_from_the_tree_itself() -> None:
    """The watchdog's view of a child's tree (every 50 ms: memory, kills) comes from the tree's
    own /proc children files, and finds what a scan of all of /proc finds: processes started
    by the child, by their children, and from a thread."""
    script = (
        "import subprocess, threading, time\n"
        "subprocess.Popen(['sh', '-c', 'sleep 30 & sleep 30; wait'])\n"
        "threading.Thread(target=lambda: subprocess.Popen(['sleep', '30'])).start()\n"
        "time.sleep(30)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        end = time.monotonic() + 10
        while len(watch.tree_by_scan(proc.pid)) < 5 and time.monotonic() < end:
            time.sleep(0.05)
        scanned = sorted(watch.tree_by_scan(proc.pid))
        assert len(scanned) == 5, scanned  # python, sh, sleep, sleep, and the thread's sleep
        assert sorted(watch.tree(proc.pid)) == scanned
    finally:
        for pid in reversed(watch.tree(proc.pid)):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.wait()


def test_a_child_started_early_is_timed_from_its_job() -> None:
    """The time-limit message says how long the submission ran, not how long its child had
    waited for the job (a spare may wait for minutes)."""
    import threading

    published = threading.Event()
    threading.Timer(3.0, published.set).start()
    out = bwrap.run(
        Spec(argv=["/bin/sh", "-c", "sleep 60"], env={"PATH": "/usr/bin:/bin"}),
        Limits(wall_seconds=1),
        lambda fp: fp.read(),
        clock_from=published,
    )
    assert out.timed_out
    assert 1.0 <= out.wall < 2.0, out.wall

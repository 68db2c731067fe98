"""`kgrade worker --gpu all`: one Celery worker per GPU, each pinned to its own GPU and serving
its model's queue, restarted when it dies; SIGTERM stops them all. On the CPU, with two fake
GPUs (KGRADE_TEST_GPUS, which replaces only the question to CUDA): the workers are real Celery
workers on the embedded broker, and only their GPU stage (never reached here) would need one."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest

from tests.faults.stack import wait_for
from tests.procs import alive, children, cmdline, descendants, start_kgrade, with_home

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
FAKE = {"0": ("NVIDIA H200", "gpu.h200"), "1": ("NVIDIA GeForce RTX 5090", "gpu.rtx5090")}


def _env(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(kv.decode().split("=", 1) for kv in raw if b"=" in kv)


def _workers(sup: int) -> dict[str, int]:
    """CUDA_VISIBLE_DEVICES → the pid of the worker pinned to it."""
    out = {}
    for pid in children(sup):
        if "celery" in cmdline(pid) and alive(pid):
            with contextlib.suppress(OSError):
                out[_env(pid)["CUDA_VISIBLE_DEVICES"]] = pid
    return out


def test_one_pinned_worker_per_gpu_restarted_when_it_dies(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGRADE_", "CUDA_"))}
    env.update(KGRADE_HOME=str(home), KGRADE_TEST_GPUS=",".join(n for n, _ in FAKE.values()))
    log = tmp_path / "workers.log"
    sup = start_kgrade(["worker", "--gpu", "all", "--grace", "10"], env, log)

    def said() -> str:
        return log.read_text(errors="replace")[-3000:]

    try:
        wait_for(
            lambda: (
                set(_workers(sup.pid)) == set(FAKE)
                and all(descendants(p) for p in _workers(sup.pid).values())
            ),
            180,
            f"two workers with their pools\n{said()}",
        )
        first = _workers(sup.pid)
        for pin, pid in first.items():
            argv = cmdline(pid)
            assert argv[argv.index("-Q") + 1] == FAKE[pin][1], argv  # its model's queue only
            assert "-B" not in argv  # no reconciler in GPU workers: `kgrade beat`, once
        names = {cmdline(p)[cmdline(p).index("-n") + 1] for p in first.values()}
        assert len(names) == 2, names  # each its own Celery node name
        # the whole log: the workers' start (their ncu checks) can push it out of said()'s tail
        assert "GPU 0 NVIDIA H200 (0) → gpu.h200" in log.read_text(errors="replace"), said()

        pool = descendants(first["1"])
        os.kill(first["1"], signal.SIGKILL)
        wait_for(
            lambda: _workers(sup.pid).get("1") not in (None, first["1"]),
            10,
            f"GPU 1's worker to be started again\n{said()}",
        )
        wait_for(lambda: not any(alive(p) for p in pool), 10, "its old pool to go")
        again = _workers(sup.pid)
        assert again["0"] == first["0"]  # the other GPU's worker went on
        argv = cmdline(again["1"])
        assert argv[argv.index("-Q") + 1] == "gpu.rtx5090"
        assert "gpu1 (pid" in said() and "killed by SIGKILL; starting it again" in said()

        wait_for(lambda: all(descendants(p) for p in _workers(sup.pid).values()), 120, "pools")
        tree = [sup.pid, *descendants(sup.pid)]
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(timeout=60) == 0, said()
        assert [p for p in tree if alive(p)] == [], said()
        assert with_home(home) == [], said()
    finally:
        for pid in [sup.pid, *descendants(sup.pid), *with_home(home)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        sup.wait()

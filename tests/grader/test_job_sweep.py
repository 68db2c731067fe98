"""A grading killed mid-run (a worker's SIGKILL, the out-of-memory killer) cleans nothing up:
its job folder, with the inputs (gigabytes for a GPU grading), stayed in /tmp for good. Job
folders are named after their process, and making one removes those whose process is gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.sandbox import job
from tests.conftest import ROOT

SLEEPER = ROOT / "tests" / "security" / "exploits" / "sleep_past_limit.py"
SCRIPT = r"""
import sys
from pathlib import Path
from grader import GradeOptions, checkpoints, grade
options = GradeOptions(device="cpu", work_dir=Path(sys.argv[2]))
grade(Path(sys.argv[1]).read_text(), checkpoints.get("c3a-softmax"), options)
"""


def _folders(where: Path) -> set[Path]:
    return {p for p in where.iterdir() if p.name.startswith(job.JOB_PREFIX)}


@pytest.mark.timeout(120)
def test_a_killed_gradings_folder_is_removed_by_the_next_grading(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(SLEEPER), str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},
    )
    end = time.monotonic() + 90
    while time.monotonic() < end and not any(
        (p / "job" / "job.json").exists() for p in _folders(tmp_path)
    ):
        time.sleep(0.1)  # the child has its job: the grading is running
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    left = _folders(tmp_path)
    assert len(left) == 1, left  # the killed grading's folder stays behind
    alive = tmp_path / f"{job.JOB_PREFIX}{os.getpid()}-live"  # a live process's: kept
    alive.mkdir()
    fresh = job.new_root(tmp_path)
    assert _folders(tmp_path) == {alive, fresh}
    assert fresh.name.startswith(f"{job.JOB_PREFIX}{os.getpid()}-")


def test_folders_without_a_pid_or_of_a_live_process_are_left_alone(tmp_path: Path) -> None:
    old = tmp_path / f"{job.JOB_PREFIX}4yjhtrni"  # named before pids were (mkdtemp's letters)
    digits = tmp_path / f"{job.JOB_PREFIX}12345678"
    live = tmp_path / f"{job.JOB_PREFIX}{os.getppid()}-abc"
    other = tmp_path / "unrelated-1-x"
    for p in (old, digits, live, other):
        p.mkdir()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = tmp_path / f"{job.JOB_PREFIX}{int(gone.stdout)}-xyz"
    (dead / "job").mkdir(parents=True)
    assert job.sweep_orphans(tmp_path) == [dead]
    assert {p for p in tmp_path.iterdir()} == {old, digits, live, other}

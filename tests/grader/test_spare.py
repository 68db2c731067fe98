"""A spare sandboxed child (grader.pipeline.Spare): started before its grading exists, it grades
the next CPU submission that fits, as a fresh process would; one that does not fit is left
alone, and a discarded one leaves no process and no folder behind."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from grader import GradeOptions, Verdict, checkpoints, grade
from grader.pipeline import Spare
from grader.sandbox import bwrap, job
from tests.grader.test_early import _harness_running
from tests.procs import descendants, harness_pids

CK = checkpoints.get("c3a-softmax")
ROOT = Path(__file__).resolve().parents[2]


def _wait_started(spare: Spare) -> None:
    end = time.monotonic() + 30
    while not _harness_running() and time.monotonic() < end:
        time.sleep(0.05)
    assert spare.child.alive() and _harness_running()


@pytest.mark.timeout(180)
def test_a_spare_grades_the_next_submission_it_fits() -> None:
    options = GradeOptions(device="cpu")
    spare = Spare(options)
    _wait_started(spare)
    mine = set(harness_pids(descendants(os.getpid())))
    seen: set[int] = set()
    done = threading.Event()

    def watch() -> None:  # every sandboxed child that runs while it grades
        while not done.is_set():
            seen.update(harness_pids(descendants(os.getpid())))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        result = grade(CK.reference_solution.read_text(), CK, options, spare)
    finally:
        done.set()
        watcher.join()
    assert result.verdict is Verdict.CORRECT, result.messages
    assert spare.used
    assert seen == mine and len(mine) == 1, (seen, mine)  # the spare's child, and no other
    assert not spare.root.exists() and not spare.child.alive()

    wrong = next(w for w in CK.wrong_solutions() if w.name == "missing_mask")
    spare = Spare(options)
    result = grade(wrong.path.read_text(), CK, options, spare)
    assert spare.used and result.verdict is Verdict.RUNTIME_ERROR, result.messages


@pytest.mark.timeout(180)
def test_a_spare_that_does_not_fit_is_left_alone_and_discarded_clean() -> None:
    options = GradeOptions(device="cpu")
    spare = Spare(options)
    _wait_started(spare)
    other = dataclasses.replace(options, limits=bwrap.Limits(wall_seconds=30))
    result = grade(CK.reference_solution.read_text(), CK, other, spare)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert not spare.used and spare.child.alive()
    assert spare.fits(options)
    spare.born -= Spare.MAX_AGE  # an hour idle: retired, not used
    assert not spare.fits(options)
    spare.discard()
    assert not spare.child.alive() and not spare.root.exists()
    assert not _harness_running()


@pytest.mark.timeout(120)
def test_a_spare_whose_child_died_no_longer_fits() -> None:
    """Killed while it waits (the OOM killer, say): the next submission must not be graded in
    a dead process and blamed for it."""
    options = GradeOptions(device="cpu")
    spare = Spare(options)
    _wait_started(spare)
    for pid in harness_pids(descendants(os.getpid())):
        os.kill(pid, signal.SIGKILL)
    end = time.monotonic() + 5
    while spare.fits(options) and time.monotonic() < end:
        time.sleep(0.05)
    assert not spare.fits(options)
    result = grade(CK.reference_solution.read_text(), CK, options, spare)
    assert result.verdict is Verdict.CORRECT and not spare.used, result.messages
    spare.discard()


@pytest.mark.timeout(120)
def test_a_grading_that_fails_before_its_job_kills_the_spare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = GradeOptions(device="cpu")
    spare = Spare(options)
    _wait_started(spare)

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(job, "prepare", full)
    result = grade(CK.reference_solution.read_text(), CK, options, spare)
    assert result.verdict is Verdict.INTERNAL_ERROR
    assert not spare.child.alive() and not spare.root.exists()
    end = time.monotonic() + 5
    while _harness_running() and time.monotonic() < end:
        time.sleep(0.05)
    assert not _harness_running(), "the spare's child was left waiting in a deleted folder"


@pytest.mark.timeout(120)
def test_a_waiting_child_whose_folder_is_gone_exits_by_itself() -> None:
    """A parent that died without killing its spare leaves nothing waiting for ever: the child
    gives up once its job folder has been deleted (or after two hours)."""
    options = GradeOptions(device="cpu")
    spare = Spare(options)
    _wait_started(spare)
    time.sleep(2.5)  # past the first seconds of fast polling
    job.remove_root(spare.root)  # as the next grading's sweep does (its capped folders too)
    end = time.monotonic() + 10
    while _harness_running() and time.monotonic() < end:
        time.sleep(0.05)
    assert not _harness_running()
    spare.discard()


SPARE_IN_A_PROCESS = """
import sys, time
sys.path.insert(0, ".")
from grader import GradeOptions
from grader.pipeline import Spare
spare = Spare(GradeOptions(device="cpu", unsafe_no_sandbox=True))
print("started", flush=True)
time.sleep(120)
"""


@pytest.mark.timeout(120)
def test_a_waiting_child_whose_parent_died_exits_by_itself() -> None:
    """Without bubblewrap's --die-with-parent (here: no sandbox; with one, bubblewrap's inner
    process can outlive a parent killed while it starts), the child still notices that its
    parent has gone, by the result pipe's closed reading end, and exits."""
    parent = subprocess.Popen(
        [sys.executable, "-c", SPARE_IN_A_PROCESS], cwd=ROOT, stdout=subprocess.PIPE
    )
    assert parent.stdout is not None and parent.stdout.readline().strip() == b"started"
    end = time.monotonic() + 30
    while not harness_pids(descendants(parent.pid)) and time.monotonic() < end:
        time.sleep(0.05)
    (child,) = harness_pids(descendants(parent.pid))
    time.sleep(3)  # it has started and waits for its job
    parent.kill()
    parent.wait()
    end = time.monotonic() + 10
    while os.path.exists(f"/proc/{child}") and time.monotonic() < end:
        time.sleep(0.05)
    if os.path.exists(f"/proc/{child}"):  # a zombie would be reaped by init, not us
        state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
        assert state == "Z", "the orphaned child is still waiting for its job"

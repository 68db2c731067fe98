"""The sandboxed child is started before the parent draws the inputs (Python, torch and Triton
start meanwhile), and it reads nothing until the job is published whole; its time limit counts
from then. Real gradings on a copy of the vector-add checkpoint whose `make_inputs` is slow or
fails; since issue 32 problem.py runs in a sandbox of its own, which sees nothing of the
submission's, so the submission's child is watched from this process (tests/procs.py)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from grader import GradeOptions, Verdict, checkpoints, grade
from grader.sandbox import bwrap
from tests.procs import descendants

ROOT = Path(__file__).resolve().parents[2]

# Prepended to the copied problem.py (which runs in its own warm process: `_waited` lasts
# across this grading's calls).
PROBE = """
import time as _time

_waited = []  # the first call is slow; the later ones are not
"""


def copy_checkpoint(tmp_path: Path, make_inputs_body: str) -> checkpoints.Checkpoint:
    folder = tmp_path / "vector_add_probe"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    problem = folder / "problem.py"
    text = problem.read_text().replace(
        "def make_inputs(case: CaseSpec, gen: torch.Generator) -> list[torch.Tensor]:\n",
        "def make_inputs(case: CaseSpec, gen: torch.Generator) -> list[torch.Tensor]:\n"
        + make_inputs_body,
    )
    problem.write_text(text.replace("import torch\n", "import torch\n" + PROBE, 1))
    return checkpoints.load(folder)


def _harness_children() -> list[int]:
    """This process's descendants that are Python running the submission's harness
    (bubblewrap's own command line names child.py too)."""
    found = []
    for pid in descendants(os.getpid()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if Path(argv[0].decode()).name.startswith("python") and any(
            a.endswith(b"child.py") for a in argv
        ):
            found.append(pid)
    return found


@contextmanager
def watching() -> Iterator[list[float]]:
    """The seconds since entering at which a harness child was seen (polled every 20 ms)."""
    seen: list[float] = []
    stop = threading.Event()
    t0 = time.monotonic()

    def poll() -> None:
        while not stop.wait(0.02):
            if _harness_children():
                seen.append(time.monotonic() - t0)

    watcher = threading.Thread(target=poll, daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        stop.set()
        watcher.join()


def test_the_child_is_running_while_the_inputs_are_drawn(tmp_path: Path) -> None:
    """The first make_inputs takes 15 s: a child started after the inputs could not be seen
    before then."""
    ck = copy_checkpoint(
        tmp_path, "    if not _waited:\n        _time.sleep(15)\n    _waited.append(1)\n"
    )
    with watching() as seen:
        result = grade(ck.reference_solution.read_text(), ck, GradeOptions(device="cpu"))
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.stages["inputs"] >= 15
    assert seen and seen[0] < 15


@pytest.mark.timeout(90)
def test_inputs_that_fail_end_the_waiting_child_at_once(tmp_path: Path) -> None:
    """A checkpoint whose make_inputs raises once the child is running: an internal error,
    and the waiting child is killed at once rather than left to wait out its time limit
    (10 minutes here)."""
    ck = copy_checkpoint(
        tmp_path, "    _time.sleep(6)\n    raise RuntimeError('the inputs broke')\n"
    )
    options = GradeOptions(device="cpu", limits=bwrap.Limits(wall_seconds=600))
    with watching() as seen:
        result = grade(ck.reference_solution.read_text(), ck, options)
    assert seen and seen[0] < 6  # the child was waiting when the inputs broke
    assert not _harness_children()  # and it is gone when the grading returns
    assert result.verdict is Verdict.INTERNAL_ERROR
    assert "the inputs broke" in "\n".join(result.messages)
    # built as every internal error is (GradeResult.internal_error), with the grade's headline
    # first, and the device and versions it was graded with
    assert result.messages[0].startswith("Level 0 (internal_error): the grader failed")
    assert result.device != "-" and "torch" in result.versions


@pytest.mark.timeout(120)
def test_the_time_limit_counts_from_the_job_not_from_the_start(tmp_path: Path) -> None:
    """Inputs that take longer than the child's whole time limit: the submission still gets
    its full time once its job is there."""
    ck = copy_checkpoint(
        tmp_path,
        "    if not _waited:\n        _time.sleep(12)\n    _waited.append(1)\n",
    )
    options = GradeOptions(device="cpu", limits=bwrap.Limits(wall_seconds=10))
    result = grade(ck.reference_solution.read_text(), ck, options)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.stages["inputs"] > 10

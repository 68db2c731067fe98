"""The sandboxed child is started before the parent draws the inputs (Python, torch and Triton
start meanwhile), and it reads nothing until the job is published whole; its time limit counts
from then. Real gradings on a copy of the vector-add checkpoint whose `make_inputs` looks at
this process's children."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader import GradeOptions, Verdict, checkpoints, grade
from grader.sandbox import bwrap

ROOT = Path(__file__).resolve().parents[2]

# Prepended to the copied problem.py: the sandboxed child among this process's descendants.
PROBE = """
import os as _os
import time as _time
from pathlib import Path as _Path

from tests.procs import descendants as _descendants  # this runs in the test's own process


_waited = []  # the first call waits; the later ones find the child already there


def _child_running():
    for pid in _descendants(_os.getpid()):
        try:
            argv = _Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\\0")
        except OSError:
            continue
        # Python running the harness (bubblewrap's own command line names child.py too)
        if _Path(argv[0].decode()).name.startswith("python") and any(
            a.endswith(b"child.py") for a in argv
        ):
            return True
    return False
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


def test_the_child_is_running_while_the_inputs_are_drawn(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    ck = copy_checkpoint(
        tmp_path,
        "    _end = _time.monotonic() + 20\n"
        "    while not _waited and not _child_running() and _time.monotonic() < _end:\n"
        "        _time.sleep(0.02)\n"
        "    if not _waited:\n"
        f"        _Path({str(seen)!r}).write_text(str(_child_running()))\n"
        "    _waited.append(1)\n",
    )
    result = grade(ck.reference_solution.read_text(), ck, GradeOptions(device="cpu"))
    assert result.verdict is Verdict.CORRECT, result.messages
    assert seen.read_text() == "True"


@pytest.mark.timeout(90)
def test_inputs_that_fail_end_the_waiting_child_at_once(tmp_path: Path) -> None:
    """A checkpoint whose make_inputs raises once the child is running: an internal error,
    and the waiting child is killed at once rather than left to wait out its time limit
    (10 minutes here)."""
    ck = copy_checkpoint(
        tmp_path,
        "    _end = _time.monotonic() + 20\n"
        "    while not _child_running() and _time.monotonic() < _end:\n"
        "        _time.sleep(0.02)\n"
        "    raise RuntimeError(f'the inputs broke (child running: {_child_running()})')\n",
    )
    options = GradeOptions(device="cpu", limits=bwrap.Limits(wall_seconds=600))
    result = grade(ck.reference_solution.read_text(), ck, options)
    assert result.verdict is Verdict.INTERNAL_ERROR
    assert "the inputs broke (child running: True)" in "\n".join(result.messages)


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

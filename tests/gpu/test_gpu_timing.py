"""On a real GPU: timing no submission can touch (grader/gpu/turns.py). Every timed round draws
fresh inputs on the GPU, every round's output is checked at sampled positions, three whole
outputs per shape are asked for after their rounds ran, and the baselines are timed by the
trusted parent, taking turns with the child. Each cheat is measured against its honest twin
(`three_kernels.py`, slower than torch: level 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from grader import GradeOptions, GradeResult, Verdict, checkpoints, grade
from grader.gpu.benchmark import SMALL_SHAPE_BYTES, SMALL_SHAPE_ROUNDS
from grader.plan.shapes import ROUNDS
from tests.conftest import FIXTURES

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]
GPU_FIXTURES = FIXTURES / "gpu"


def grade_timed(name: str, tmp: Path) -> GradeResult:
    options = GradeOptions(device="cuda", cache_dir=tmp / "cache", report_dir=tmp, profile=False)
    return grade((GPU_FIXTURES / name).read_text(), checkpoints.get("c3a-softmax"), options)


def speedup(result: GradeResult) -> float:
    assert result.benchmark is not None and result.benchmark.geomean, result.messages
    return result.benchmark.geomean["torch"].median


@pytest.fixture(scope="module")
def twin(tmp_path_factory: pytest.TempPathFactory) -> GradeResult:
    result = grade_timed("three_kernels.py", tmp_path_factory.mktemp("twin"))
    assert result.verdict is Verdict.CORRECT, result.messages
    return result


def test_every_round_is_fresh_and_checked(twin: GradeResult) -> None:
    """The honest twin: correct, timed on every round, its baselines timed by the parent."""
    assert twin.level == 2
    assert twin.benchmark is not None
    # a shape of at most 1/SMALL_SHAPE_BYTES of the largest one's bytes is timed over
    # SMALL_SHAPE_ROUNDS times the rounds (issue 29): the course shape 50, the short rows 200
    largest = max(s.minimal_bytes or 0 for s in twin.benchmark.shapes)
    for shape in twin.benchmark.shapes:
        small = (shape.minimal_bytes or 0) * SMALL_SHAPE_BYTES <= largest
        assert shape.rounds == ROUNDS * (SMALL_SHAPE_ROUNDS if small else 1), shape.name
        assert {"torch", "naive"} <= set(shape.times_us)
    assert not twin.benchmark.flags, twin.benchmark.flags


def test_answers_remembered_across_rounds_gain_nothing(twin: GradeResult, tmp_path: Path) -> None:
    result = grade_timed("memo_sampled.py", tmp_path)
    # a memo is state kept between calls: since issue 28 the static check refuses it before
    # anything runs (on the H200, 2026-12-01: forbidden, "assigning into ... changes a
    # module-level value"); where it ran, fresh inputs never hit it (the twin's speed)
    if result.verdict is Verdict.FORBIDDEN:
        assert "module-level" in " ".join(result.messages), result.messages
        return
    assert result.verdict is Verdict.CORRECT, result.messages
    assert result.level <= 2
    assert speedup(result) <= speedup(twin) * 1.05, (speedup(result), speedup(twin))


def test_work_skipped_on_a_quarter_of_the_rounds_is_wrong(tmp_path: Path) -> None:
    result = grade_timed("skip_quarter.py", tmp_path)
    # it counts its calls in a module-level value: refused by the static check since issue 28
    assert result.verdict in (Verdict.FORBIDDEN, Verdict.WRONG_ANSWER), result.messages
    if result.verdict is Verdict.WRONG_ANSWER:
        assert "wrong while being timed" in " ".join(result.messages)

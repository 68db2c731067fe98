"""Shared fixtures: grading real files through the real sandbox."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import torch

from grader import GradeOptions, GradeResult, checkpoints, grade
from grader.sandbox.bwrap import Limits
from tests.skips import pytest_sessionfinish, pytest_terminal_summary  # noqa: F401 - hooks

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "submissions"

GradeFn = Callable[..., GradeResult]


def has_gpu() -> bool:
    return torch.cuda.is_available()


@pytest.fixture(scope="session")
def softmax() -> checkpoints.Checkpoint:
    return checkpoints.get("c3a-softmax")


@pytest.fixture
def grade_source() -> GradeFn:
    """grade_source(source, checkpoint_id="c3a-softmax", wall_seconds=60, **options)."""

    def run(
        source: str, checkpoint_id: str = "c3a-softmax", wall_seconds: float = 60.0, **kw: object
    ) -> GradeResult:
        limits = kw.pop("limits", None) or Limits(wall_seconds=wall_seconds)
        options = GradeOptions(device="cpu", limits=limits, **kw)  # type: ignore[arg-type]
        return grade(source, checkpoints.get(checkpoint_id), options)

    return run


@pytest.fixture
def grade_fixture(grade_source: GradeFn) -> GradeFn:
    def run(name: str, checkpoint_id: str = "c3a-softmax", **kw: object) -> GradeResult:
        return grade_source((FIXTURES / name).read_text(), checkpoint_id, **kw)

    return run

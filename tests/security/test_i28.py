"""Issue 28's catalog (tests/security/i28/): hostile files by class — 1 kernel identity, 2 host
functions reaching kernel bodies, 3 what runs is not what was checked, 4 names Python or
Triton's interpreter fill in, 6 host state between calls, 7 the trusted parent — and honest
files (class 8 and the ordinary Triton styles). Same header as tests/security/test_attacks.py.
Every hostile file is refused or wrong; every honest one is `correct` on the CPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import checkpoints, grade
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe

HERE = Path(__file__).resolve().parent / "i28"
FILES = sorted(HERE.glob("*/*.py"))
CLASSES = {"1", "2", "3", "4", "6", "7"}


def _header(path: Path) -> tuple[set[str], str, str]:
    lines = path.read_text().split("\n", 6)
    expect = set(lines[0].removeprefix("# expect: ").split("|"))
    klass = lines[1].removeprefix("# class: ").strip()
    checkpoint = lines[3].removeprefix("# checkpoint: ").strip()
    return expect, klass, checkpoint


def test_the_catalog_covers_every_class() -> None:
    hostile = [p for p in FILES if p.parent.name == "attacks"]
    for klass in CLASSES:
        assert sum(_header(p)[1] == klass for p in hostile) >= 3, klass
    assert sum(p.parent.name == "honest" for p in FILES) >= 8
    for p in FILES:
        expect, klass, _ = _header(p)
        if p.parent.name == "attacks":
            assert "correct" not in expect and klass in CLASSES, p.name
        else:
            assert expect == {"correct"} and klass == "honest", p.name


@pytest.mark.skipif(probe() is not None, reason=str(probe()))
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_i28_grading(path: Path) -> None:
    expect, _, checkpoint = _header(path)
    result = grade(
        path.read_text(),
        checkpoints.get(checkpoint),
        GradeOptions(device="cpu", limits=Limits(wall_seconds=60)),
    )
    assert result.verdict.value in expect, (path.name, result.verdict, result.messages[:3])
    assert len(result.model_dump_json()) < 64 * 1024

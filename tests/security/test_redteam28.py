"""The red teams' files (tests/security/redteam28/ for issue 28, redteam34/ and redteam36/ from
the sessions after, graded by redteam28/run.py): every
file gets a verdict its `# expect:` line names (a hostile file is refused or wrong; an honest
one `correct`), never `internal_error`, and a result JSON under 64 KiB. What is not fixed yet
is a strict xfail with the reason, so that a fix shows up as an XPASS."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import checkpoints, grade
from grader.judge import kernel_check
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe
from tests.security.redteam28.run import header

HERE = Path(__file__).resolve().parent
DIRS = ("redteam28", "redteam34", "redteam36", "redteam36b", "redteam37")  # 36-37: 2026-12-03
FILES = sorted(p for d in DIRS for p in (HERE / d).glob("*.py") if p.name != "run.py")

NOT_FIXED = {
    "redteam34/h07_detect_interp_ftz": "a kernel that tells the interpreter from a GPU by exp's "
    "last bits: no CPU check can see what it does on a GPU; the GPU stage checks correctness "
    "again on the GPU (docs/SUBMISSIONS.md)",
    "redteam34/o02_korean_language_alias": "Triton 3.9's interpreter does not take a parameter "
    "annotated 'language.constexpr' (an alias of triton.language) as a constexpr (reproduced "
    "with plain TRITON_INTERPRET=1): Triton's, not kgrade's",
    "redteam34/o08_wrapper_class_call": "a class of the file (a wrapper with __call__) is "
    "refused by the documented rules (docs/SUBMISSIONS.md: no classes but config classes)",
}


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.stem}"


def _param(p: Path) -> object:
    if _id(p) in NOT_FIXED:
        return pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=NOT_FIXED[_id(p)]))
    return p


@pytest.mark.skipif(probe() is not None, reason=str(probe()))
@pytest.mark.parametrize("path", [_param(p) for p in FILES], ids=[_id(p) for p in FILES])
# A file that stalls the compile check is stopped STALL_SECONDS (150 s) after its run ends: on
# a loaded machine run + stall passed the suite's 300 s (CI, x36_static_range_stall)
@pytest.mark.timeout(int(60 + kernel_check.GRACE_SECONDS + 120))
def test_redteam28_grading(path: Path) -> None:
    expect, checkpoint, _ = header(path)
    result = grade(
        path.read_text(encoding="utf-8", errors="surrogateescape"),
        checkpoints.get(checkpoint),
        GradeOptions(device="cpu", limits=Limits(wall_seconds=60)),
    )
    assert result.verdict.value in expect, (path.name, result.verdict, result.messages[:3])
    assert len(result.model_dump_json()) < 64 * 1024

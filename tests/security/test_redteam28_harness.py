"""Red-team files of issue 28 that the harness and the judge answer (tests/security/redteam28):
a precheck the submission's own code kept from checking cases is not `correct` (x80, x81); the
child's text is capped after it is escaped, so the result stays small (x52); every distinct
specialization is compiled to a cubin, not only each kernel's first (x39). Graded with the real
grader on CPU, as `run.py` grades them."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import Verdict, checkpoints, grade
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(probe() is not None, reason=str(probe()))

HERE = ROOT / "tests" / "security" / "redteam28"
OPTIONS = GradeOptions(device="cpu", limits=Limits(wall_seconds=60))
RESULT_CAP = 64 * 1024  # bytes of result JSON any submission may make


def _grade(name: str):  # type: ignore[no-untyped-def]
    path: Path = HERE / name
    return grade(path.read_text(), checkpoints.get("c3a-softmax"), OPTIONS)


@pytest.mark.parametrize(
    "name", ["x80_gpu_only_every_call.py", "x81_gpu_only_blinds_hard_cases.py"]
)
def test_cases_the_submission_left_to_the_gpu_keep_the_precheck_from_correct(name: str) -> None:
    result = _grade(name)
    said = "\n".join(result.messages)
    assert result.verdict is Verdict.UNCHECKED, said
    assert result.level == 0
    assert "could not be checked on the CPU" in said
    assert "libdevice.erfinv" in said


def test_the_result_of_a_flood_of_escaped_characters_stays_under_the_cap() -> None:
    result = _grade("x52_stdout_control_chars.py")
    assert len(result.model_dump_json()) < RESULT_CAP


def test_a_specialization_after_a_decoy_is_compiled_to_a_cubin_too() -> None:
    result = _grade("x39_backend_only_failure.py")
    said = "\n".join(result.messages)
    # since issue 29 the allowlist refuses inline PTX before the compile check sees it
    assert result.verdict in (Verdict.COMPILE_ERROR, Verdict.FORBIDDEN), said

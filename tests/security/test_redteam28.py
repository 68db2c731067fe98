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
# 36-38: 2026-12-03 (redteam38: round 5, r5_*); 2026-12-04 (redteam39: round 6, r6_*;
# redteam40: round 7, r7_*, its fixed holes and its honest files); 2026-12-07 (redteam41:
# round 8, r8_*, all its files)
DIRS = (
    "redteam28", "redteam34", "redteam36", "redteam36b", "redteam37", "redteam38", "redteam39",
    "redteam40", "redteam41",
)  # fmt: skip
FILES = sorted(p for d in DIRS for p in (HERE / d).glob("*.py") if p.name != "run.py")

NOT_FIXED = {
    "redteam39/r6_x04_fma_contraction": "a*a - fma(a, a, 0) is 0 in numpy and the fma residual "
    "on a GPU (LLVM "
    "contracts a*b+c into one fma, measured on the H200): the interpreter cannot know which "
    "products a GPU fuses; the GPU stage checks it",
    "redteam39/r6_x33_max_constancy_lie": "tl.max_constancy / multiple_of hints that lie: the "
    "interpreter ignores "
    "hints; what a GPU does with a false hint is undefined and not measured",
    "redteam34/h07_detect_interp_ftz": "a kernel that tells the interpreter from a GPU by exp's "
    "last bits: no CPU check can see what it does on a GPU; the GPU stage checks correctness "
    "again on the GPU (docs/SUBMISSIONS.md)",
    "redteam34/o02_korean_language_alias": "its 'language.constexpr' annotation is now a "
    "constexpr here too (red team 8), but its Korean kernel name is refused by Triton's own "
    "compiler ('invalid function identifier'), on a GPU too: Triton's, not kgrade's",
    "redteam38/r5_x05": "the entry passes x.is_cuda as a constexpr: the GPU specialization is "
    "one the CPU precheck cannot run; the GPU stage runs and checks it (docs/SUBMISSIONS.md)",
    "redteam41/r8_x13_host_is_cuda": "a scale chosen by x.is_cuda: as r5_x05, left to the GPU "
    "stage",
    "redteam41/r8_x57_cuda_is_available": "a scale chosen by torch.cuda.is_available(): as "
    "r5_x05, left to the GPU stage",
    "redteam41/r8_x58_device_capability": "a scale chosen by the device's capability: the CPU "
    "precheck answers as the compile check's sm_90, so each real GPU's stage checks it",
    "redteam41/r8_x63_boolop_and_operand": "`(n > 0) and 2147483647` in a kernel: Python's `and` "
    "returns its operand under the interpreter, an i1 on a GPU; not refused yet",
    "redteam41/r8_x55_range_var_fp64": "`i * 1e-50` with an int32 loop variable: Triton's "
    "semantics make 1e-50 an fp64 constant on a GPU too (to_tensor), so this is probably right "
    "on a GPU as well; unmeasured",
    "redteam41/r8_x03_int_div_zero": "integer division by a run-time zero: numpy's answer, "
    "which the H200 gave too (2026-12-04-h200-interp-vs-gpu.md, flag 5)",
    "redteam41/r8_x04_int_rem_zero": "as r8_x03, for %: unmeasured",
    "redteam41/r8_x21_libdevice_trunc_ftz": "trunc of a subnormal is ±0 with or without FTZ: "
    "the helper's control, likely the same on a GPU",
    "redteam41/r8_x22_div_intmin_minus1": "INT_MIN // -1: the helper's control, likely the "
    "same on a GPU",
    "redteam38/r5_x06": "a heuristic reads x.is_cuda: as r5_x05, left to the GPU stage",
    "redteam38/r5_x12": "a config prune reads x.is_cuda: as r5_x05, left to the GPU stage",
    "redteam38/r5_x09": "wrong only for bf16, which the grader leaves to the GPU on purpose "
    "(Triton 3.9's interpreter cannot compute bf16; docs/SUBMISSIONS.md)",
    "redteam38/r5_x17": "a non-atomic read-modify-write across programs is right in every "
    "one-at-a-time order the interpreter can run: a race only programs running at once show "
    "(the GPU stage checks the GPU's outputs)",
    "redteam38/r5_x18": "a kernel that sniffs the NaN poison of a checked call's fresh output: "
    "every CPU call is checked and poisoned, so it is right here; on a GPU the timed rounds' "
    "outputs are checked at secret positions (tests/gpu/test_gpu_timing.py)",
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

"""Red-team regressions for the compute-bound checkpoints (c3a-attention, c3a-gemm-e3).

1. Submissions in tests/fixtures/submissions/redteam/, graded on CPU like the attack catalog.
   Their header (not `# expect:`, which would enrol them in the c3a-softmax exploit catalog):

       # redteam-expect: wrong_answer|forbidden     the verdicts a right grader may give
       # checkpoint: c3a-attention
       # hostile: ... | # honest: ...               what it tries

   A hostile file is never `correct`; an honest one is. Files the grader gets wrong today are
   strict xfails (GETS_THROUGH, with the verdict they get), so that a fix shows as an XPASS.
2. Explanations for c3a-gemm-e3's level 3, checked with `explanation.check` against the
   citable facts of a real H200 grading (benchmarks/results/2026-12-01-h200-compute-1.json).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import checkpoints, grade
from grader.judge import explanation
from grader.models import GradeResult
from grader.options import GradeOptions
from grader.sandbox.bwrap import Limits, probe

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "fixtures" / "submissions" / "redteam"
RECORD = ROOT / "benchmarks" / "results" / "2026-12-01-h200-compute-1.json"

# Files graded wrongly on CPU today: name -> what happens (the report lists each).
GETS_THROUGH = {
    "attn_fp16_normalized_acc": "fp16 output accumulator, renormalised per tile: correct",
    "attn_pv_dot_out_fp16": "P@V tile products in fp16 (tl.dot out_dtype=tl.float16): correct",
    "gemm_fp16_acc_big_block_k": "fp16 running sum over K tiles with BLOCK_K = 1024: correct",
    "gemm_split_k_fp16_partials": "split-K with fp16 partials summed in fp16: correct",
}
# Each file is graded with one fixed seed, so that its verdict is reproducible. A file whose
# error sits near the tolerance is caught on some draws of the inputs and not others: in CI
# (stop 37) gemm_fp16_acc_block_k256 got `correct` and attn_pv_dot_out_fp16 was caught, on
# fresh seeds. Their rates over eight seeds are in
# benchmarks/results/2026-12-02-cpu-redteam-seed-sweep.txt (block_k256 caught 7 of 8,
# attn_fp16_normalized_acc caught 1 of 8); `benchmarks/redteam_seed_sweep.py` measures them.
SEED = 0
# Wrong only on shapes the interpreter does not run; the GPU stage's cases are the check.
GPU_ONLY = {
    "attn_causal_only_small": "causal honoured only on the public interpreter shapes",
    "attn_skips_long_seq": "an unwritten output for seq > 4096",
    "gemm_drops_k_tail_large_k": "the K tail dropped when K >= 200",
    "attn_window_1024_long_seq": "only the last 1024 keys attended when seq > 1024",
}


def _header(path: Path) -> tuple[frozenset[str], str, bool]:
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# redteam-expect: "), path.name
    assert lines[1].startswith("# checkpoint: "), path.name
    assert lines[2].startswith(("# hostile: ", "# honest: ")), path.name
    expect = frozenset(lines[0].removeprefix("# redteam-expect: ").split("|"))
    return expect, lines[1].removeprefix("# checkpoint: ").strip(), "# honest: " in lines[2]


FILES = sorted(FOLDER.glob("*.py"))


def _param(path: Path) -> object:
    marks: list[pytest.MarkDecorator] = []
    if path.stem in GETS_THROUGH:
        marks.append(pytest.mark.xfail(strict=True, reason=GETS_THROUGH[path.stem]))
    if path.stem in GPU_ONLY:
        marks.append(pytest.mark.skip(reason=f"GPU stage only: {GPU_ONLY[path.stem]}"))
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.skipif(probe() is not None, reason=str(probe()))
@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_redteam_submission(path: Path) -> None:
    expect, checkpoint, honest = _header(path)
    assert honest == (expect == {"correct"}), f"{path.name}: header disagrees with itself"
    result = grade(
        path.read_text(),
        checkpoints.get(checkpoint),
        # 150 s, not the service's 60: the honest attention files take 20-32 s alone here, and
        # twice that beside the rest of the suite on two cores (CI, stop 36); the verdict is
        # what this test checks, not how fast the interpreter runs on a loaded machine
        GradeOptions(device="cpu", seed=SEED, limits=Limits(wall_seconds=150)),
    )
    verdict = result.verdict.value
    detail = " | ".join(m[:200] for m in result.messages[:3])
    if path.stem in GETS_THROUGH and verdict == "time_limit":
        # a known hole whose run or compile check outlasted its limit on a loaded machine
        # (seen in CI): neither fixed (an XPASS) nor through; it says nothing about the hole
        pytest.skip(f"a time limit here, which says nothing of the hole: {detail[:160]}")
    if not honest:
        assert verdict != "correct", f"{path.name} got through: {detail}"
    assert verdict in expect, f"{path.name}: expected {sorted(expect)}, got {verdict}: {detail}"


def _citable_result(checkpoint: str = "c3a-gemm-e3") -> GradeResult:
    record = json.loads(RECORD.read_text())
    return GradeResult.model_validate(record[checkpoint]["first"])


# (id, explanation, backed as a right grader judges it). The record: course-4096-bf16 yours
# 600 TFLOP/s, cuBLAS 748, 0.80x, ceiling 756; k1000-bf16 yours 203, 0.32x.
EXPLANATIONS = [
    (
        "record",
        "My Triton GEMM reaches 600 TFLOP/s. It runs at 0.80× the speed of cuBLAS, which "
        "reaches 748 TFLOP/s. A GEMM this large is compute-bound: its arithmetic intensity is "
        "1365 FLOP/B. What limits it: cuBLAS pipelines TMA loads into wgmma kernels with "
        "larger tiles, which this plain tile loop does not.",
        True,
    ),
    (
        "true-minimal",
        "My kernel reaches 600 TFLOP/s, 0.80× cuBLAS's 748 TFLOP/s. The GEMM is compute-bound "
        "(arithmetic intensity 1365 FLOP/B); what limits my kernel is its plain tile loop "
        "without TMA or wgmma pipelining.",
        True,
    ),
    (
        "true-pct-of-ceiling",
        "My Triton GEMM reaches 600 TFLOP/s, 79 % of the tensor-core ceiling of 756 TFLOP/s, "
        "and runs at 0.80× cuBLAS. It is compute-bound; its tensor pipe is active 76 % of the "
        "time, cuBLAS's 95 %, because my tiles are not pipelined with wgmma.",
        True,
    ),
    (
        "docs-example-copied",
        "My kernel reaches 694 TFLOP/s, 0.91× cuBLAS's 760; its tensor pipe is active 76 % "
        "against cuBLAS's 95 %. A GEMM this large is compute-bound on the roofline; cuBLAS "
        "uses larger tiles.",
        False,
    ),
    (
        "vague-no-numbers",
        "My kernel is slower than cuBLAS because cuBLAS is very well tuned. The GEMM is "
        "compute-bound and my tile loop is not pipelined as well.",
        False,
    ),
    (
        "wrong-tflops",
        "My kernel reaches 420 TFLOP/s. It runs at 0.55× the speed of cuBLAS, which reaches "
        "748 TFLOP/s. It is compute-bound on the roofline; cuBLAS pipelines its tiles better.",
        False,
    ),
    (
        "cublas-row-as-mine",
        "My kernel reaches 748 TFLOP/s. It runs at 0.80× the speed of cuBLAS. It is "
        "compute-bound on the roofline; cuBLAS pipelines its tiles better.",
        False,
    ),
    (
        "ceiling-as-mine",
        "My kernel reaches 756 TFLOP/s, 0.80× cuBLAS. It is compute-bound on the roofline; "
        "cuBLAS pipelines its tiles better.",
        False,
    ),
    (
        "only-cublas-numbers",
        "cuBLAS reaches 748 TFLOP/s. cuBLAS is 1.25× faster. The roofline says compute-bound; "
        "tiles.",
        False,
    ),
    (
        "cublas-tflops-no-speed",
        "cuBLAS reaches 748 TFLOP/s on the roofline, compute-bound, with its tiles and TMA.",
        False,
    ),
    (
        "range-hedge",
        "My kernel reaches between 100 and 700 TFLOP/s, somewhere from 0.1× to 0.9× cuBLAS. "
        "Compute-bound, roofline, tile.",
        False,
    ),
    (
        "true-fp16-row",
        "At course-4096-fp16 my kernel reaches 582 TFLOP/s, 0.80× cuBLAS's 728 TFLOP/s. "
        "Compute-bound on the roofline; my tiles lack wgmma pipelining.",
        True,
    ),
    (
        "true-geomean",
        "My kernel reaches 600 TFLOP/s at 4096³ bf16 and is 0.64× cuBLAS over the benchmark "
        "shapes (geometric mean). Compute-bound on the roofline; my tiles lack wgmma "
        "pipelining.",
        True,
    ),
    (
        "true-pflops",
        "My kernel reaches 0.60 PFLOP/s, 0.80× cuBLAS. Compute-bound on the roofline; tiles "
        "without TMA.",
        True,
    ),
    (
        "wrong-unit-gflops",
        "My kernel reaches 600 GFLOP/s, 0.80× cuBLAS. Compute-bound on the roofline; tiles "
        "without TMA.",
        False,
    ),
    (
        "swapped-subjects",
        "cuBLAS reaches 600 TFLOP/s and my kernel 748 TFLOP/s; mine is 0.80× cuBLAS. "
        "Compute-bound on the roofline; tiles.",
        False,
    ),
    (
        "negated-true-numbers",
        "My kernel does not reach 600 TFLOP/s and is not at 0.80× cuBLAS. Compute-bound on "
        "the roofline; tiles.",
        False,
    ),
    (
        "named-wrong-shape",
        "At k1000-bf16 my kernel reaches 600 TFLOP/s, 0.80× cuBLAS. Compute-bound on the "
        "roofline; tile.",
        False,
    ),
    (
        "numbers-at-other-shapes",
        "My kernel reaches 600 TFLOP/s at large-8192-bf16 and 0.80x cuBLAS at k1000-bf16. "
        "Compute-bound on the roofline; tile.",
        False,
    ),
    (
        "ceiling-for-compute-claim",
        "The tensor-core ceiling is 756 TFLOP/s and the GEMM is compute-bound on the roofline; "
        "cuBLAS uses TMA and tiles. My kernel is 0.80x cuBLAS.",
        False,
    ),
    (
        "false-speed-as-traffic-ratio",
        "My kernel reaches 600 TFLOP/s, 0.80× cuBLAS. With its tiles it runs at 0.93× the "
        "speed of cuBLAS on the roofline's compute-bound side.",
        False,
    ),
    (
        "true-k1000-row",
        "At k1000-bf16 my kernel reaches only 203 TFLOP/s, 0.32× cuBLAS's 634 TFLOP/s: with "
        "K = 1000 the grid is one wave of tiles. Compute-bound on the roofline.",
        True,
    ),
    (
        "true-inverse-ratio",
        "cuBLAS is 1.25× faster than my kernel: it reaches 748 TFLOP/s and mine 600 TFLOP/s. "
        "The GEMM is compute-bound on the roofline; my kernel's tile loop lacks TMA "
        "pipelining.",
        True,
    ),
    (
        "my-util-is-cublas-row",
        "My kernel reaches 600 TFLOP/s, 0.80× cuBLAS; its tensor pipe is active 95 % of the "
        "time. Compute-bound on the roofline; tiles.",
        False,
    ),
    (
        "true-times-against",
        "My kernel takes 229 µs where cuBLAS takes 184 µs, and reaches 600 TFLOP/s against "
        "cuBLAS's 748 TFLOP/s. Compute-bound on the roofline; my tiles are not pipelined "
        "with TMA.",
        True,
    ),
    (
        "dimension-named-wrong-numbers",
        "With K = 1000 my kernel reaches 600 TFLOP/s, 0.80× cuBLAS. Compute-bound on the "
        "roofline; tile.",
        False,
    ),
    (
        "true-dimension-named",
        "With K = 1000 my kernel reaches 203 TFLOP/s, 0.32× cuBLAS's 634 TFLOP/s. "
        "Compute-bound on the roofline; one wave of tiles.",
        True,
    ),
    (
        "true-slower-than",
        "My kernel is 1.25× slower than cuBLAS: it reaches 600 TFLOP/s, cuBLAS 748 TFLOP/s. "
        "Compute-bound on the roofline; my tiles lack TMA pipelining.",
        True,
    ),
]

# Explanations the checker judges wrongly today (strict xfails; the report lists each).
EXPLANATIONS_THROUGH: list[tuple[str, str, bool, str]] = []


def _params() -> list[object]:
    ok = [pytest.param(t, b, id=i) for i, t, b in EXPLANATIONS]
    bad = [
        pytest.param(t, b, id=i, marks=pytest.mark.xfail(strict=True, reason=r))
        for i, t, b, r in EXPLANATIONS_THROUGH
    ]
    return ok + bad


@pytest.mark.parametrize(("text", "backed"), _params())
def test_redteam_gemm_explanation(text: str, backed: bool) -> None:
    result = _citable_result()
    rubric = checkpoints.get("c3a-gemm-e3").definition.rubric
    check = explanation.check(text, rubric, result.citable)
    assert check.backed is backed, check.messages


# c3a-attention (level3 = "win", required traffic and speed), seq4096-d128-causal-bf16 of the
# same record: yours 262 MB, naive 35.18 GB (134x), 20.97x the naive version, 0.71x SDPA.
_TRAFFIC = "The online softmax keeps the scores on chip; my kernel moves 262 MB, the naive "
_TRAFFIC += "version 35.18 GB. "
ATTENTION = [
    pytest.param(
        _TRAFFIC + "My kernel is 20.97× faster than the naive version; attention is "
        "compute-bound on the roofline.",
        True,
        id="attn-true",
    ),
    pytest.param(
        _TRAFFIC + "The naive version is 20.97× slower than my kernel. Compute-bound on the "
        "roofline.",
        True,
        id="attn-true-inverse",
    ),
    pytest.param(
        _TRAFFIC + "My kernel is 0.71× faster than the naive version. Compute-bound on the "
        "roofline.",
        False,
        id="attn-sdpa-ratio-as-naive",
    ),
    pytest.param(
        _TRAFFIC + "My kernel is 20.97× faster than SDPA. Compute-bound on the roofline.",
        False,
        id="attn-naive-speedup-as-sdpa",
    ),
    pytest.param(
        "The online softmax keeps the scores on chip; my kernel moves 35.18 GB, the naive "
        "version 262 MB. My kernel is 20.97× faster than the naive version. Compute-bound on "
        "the roofline.",
        False,
        id="attn-traffic-swapped",
    ),
    pytest.param(
        "The online softmax keeps the scores on chip: the naive version moves 134× more DRAM "
        "traffic than my kernel (35.18 GB against 262 MB), and my kernel is 20.97× faster "
        "than the naive version. Compute-bound on the roofline.",
        True,
        id="attn-true-parenthetical-bytes",
    ),
]


@pytest.mark.parametrize(("text", "backed"), ATTENTION)
def test_redteam_attention_explanation(text: str, backed: bool) -> None:
    result = _citable_result("c3a-attention")
    rubric = checkpoints.get("c3a-attention").definition.rubric
    check = explanation.check(text, rubric, result.citable)
    assert check.backed is backed, check.messages

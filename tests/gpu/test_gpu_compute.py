"""On a real GPU (issue 23): the compute-bound checkpoints. The tensor-core ceiling per dtype
is calibrated and kept; the GEMM reference loses to cuBLAS and still reaches level 3 with an
explanation of its measured gap; the attention reference beats the naive materialized
version and reaches level 3, SDPA timed beside it; a wrong GEMM explanation stays at level 2;
fp16 accumulation is caught on the GPU too. Skipped without CUDA (`pytest -m gpu`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from grader import GradeResult, Verdict, checkpoints
from grader.gpu import roofline
from grader.sandbox.bwrap import Limits
from tests.gpu.explain import attention_win, gemm_gap
from tests.gpu.test_gpu_grading import grade_gpu

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]
GEMM = checkpoints.get("c3a-gemm-e3")
# the service's GPU time limit (app/settings.py): the attention child compiles eight
# specializations before it is timed
LIMITS = Limits(wall_seconds=300)
ATTENTION = checkpoints.get("c3a-attention")


def test_the_tensor_core_ceilings_are_measured_once_and_kept(tmp_path: Path) -> None:
    first = roofline.ceilings(tmp_path, ["bfloat16", "float16", "float32"])
    assert set(first) == {"bfloat16", "float16", "float32"}
    # H200 (2026-12-01): bf16 798, fp16 768, TF32 412 TFLOP/s; any tensor-core GPU: > 100
    assert all(v > 100 for v in first.values()), first
    assert first["float32"] < first["bfloat16"]  # TF32 runs at half the 16-bit rate
    assert roofline.ceilings(tmp_path, ["bfloat16"]) == {"bfloat16": first["bfloat16"]}
    assert (tmp_path / "compute_calibration.json").exists()


@pytest.fixture(scope="module")
def gemm_first(tmp_path_factory: pytest.TempPathFactory) -> tuple[GradeResult, Path]:
    tmp = tmp_path_factory.mktemp("gemm")
    first = grade_gpu(GEMM.reference_solution.read_text(), GEMM.id, tmp, limits=LIMITS)
    assert first.verdict is Verdict.CORRECT, first.messages
    return first, tmp


def test_the_gemm_reference_is_placed_on_the_roofline(gemm_first: tuple[GradeResult, Path]) -> None:
    first, _ = gemm_first
    assert first.level == 2, first.messages  # no explanation yet
    bench = first.benchmark
    assert bench is not None and not bench.flags, bench
    assert set(bench.compute_peaks) == {"bfloat16", "float16"}
    for s in bench.shapes:
        r = s.roofline
        assert r is not None and r.bound == "compute", s
        assert 0 < r.tflops["submission"] <= 1.2 * r.peak_tflops, r
        assert r.tflops["torch"] > 0
    p = first.profile
    assert p is not None and not p.error, p
    assert p.totals["submission"].tensor_pipe_pct is not None
    assert p.totals["torch"].tensor_pipe_pct is not None


def test_the_gemm_reference_explained_reaches_level_3(gemm_first: tuple[GradeResult, Path]) -> None:
    first, tmp = gemm_first
    text = gemm_gap(first)
    second = grade_gpu(
        GEMM.reference_solution.read_text(), GEMM.id, tmp, explanation=text, limits=LIMITS
    )
    assert second.level == 3, (text, second.messages)
    assert second.explanation is not None and second.explanation.backed


def test_a_wrong_tflops_figure_keeps_the_gemm_at_level_2(
    gemm_first: tuple[GradeResult, Path],
) -> None:
    first, tmp = gemm_first
    text = gemm_gap(first, tflops_scale=1.3)
    second = grade_gpu(
        GEMM.reference_solution.read_text(), GEMM.id, tmp, explanation=text, limits=LIMITS
    )
    assert second.level == 2 and second.explanation is not None
    assert any("TFLOP/s, yours" in m for m in second.explanation.messages), second.messages


def test_the_attention_reference_beats_naive_and_explained_reaches_level_3(tmp_path: Path) -> None:
    source = ATTENTION.reference_solution.read_text()
    first = grade_gpu(source, ATTENTION.id, tmp_path, limits=LIMITS)
    assert first.verdict is Verdict.CORRECT, first.messages
    bench = first.benchmark
    assert bench is not None and not bench.flags, bench
    for s in bench.shapes:
        assert s.speedup["naive"].low > 1, (s.name, s.speedup)
        assert "torch" in s.speedup and s.roofline is not None
    second = grade_gpu(
        source, ATTENTION.id, tmp_path, explanation=attention_win(first), limits=LIMITS
    )
    assert second.level == 3, second.messages


@pytest.mark.parametrize(
    ("cid", "wrong"), [("c3a-gemm-e3", "fp16_accumulation"), ("c3a-attention", "fp16_accumulation")]
)
def test_fp16_accumulation_is_caught_on_the_gpu(cid: str, wrong: str, tmp_path: Path) -> None:
    ck = checkpoints.get(cid)
    source = (ck.folder / "solutions" / "wrong" / f"{wrong}.py").read_text()
    result = grade_gpu(source, cid, tmp_path, benchmark=False, limits=LIMITS)
    assert result.verdict is Verdict.WRONG_ANSWER, result.messages
    assert "offset" in " ".join(c.name for c in result.cases if not c.passed)

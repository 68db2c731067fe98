"""On a real GPU: correctness on the GPU cases, the benchmark, Nsight evidence and level 3.
Skipped without CUDA. Run on the device machine: `pytest -m gpu` (see benchmarks/README.md)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import torch

from grader import GradeOptions, GradeResult, Verdict, checkpoints, grade
from grader.judge.report import render
from tests.conftest import FIXTURES
from tests.gpu.explain import from_result

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
]
ALL = checkpoints.builtins()
# the memory-bound checkpoints, whose references beat torch; the compute-bound ones (issue 23)
# have their own GPU tests (test_gpu_compute.py)
MEMORY = sorted(cid for cid, c in ALL.items() if not c.compute_bound)
GPU_FIXTURES = FIXTURES / "gpu"


def grade_gpu(source: str, cid: str, tmp: Path, **kw: object) -> GradeResult:
    options = GradeOptions(device="cuda", cache_dir=tmp / "cache", report_dir=tmp, **kw)  # type: ignore[arg-type]
    started = time.monotonic()
    result = grade(source, checkpoints.get(cid), options)
    # KGRADE_GPU_RECORD=DIR keeps every grading's full result for benchmarks/results/
    if record := os.environ.get("KGRADE_GPU_RECORD"):
        out = Path(record)
        out.mkdir(parents=True, exist_ok=True)
        data = {"wall": round(time.monotonic() - started, 2), "result": result.model_dump()}
        n = len(list(out.glob(f"{cid}-*.json")))
        (out / f"{cid}-{n}.json").write_text(json.dumps(data, default=str))
    return result


@pytest.mark.parametrize("cid", MEMORY)
def test_reference_reaches_level_3(cid: str, tmp_path: Path) -> None:
    source = ALL[cid].reference_solution.read_text()
    first = grade_gpu(source, cid, tmp_path)  # profiled: its citable table is written from
    assert first.verdict is Verdict.CORRECT, first.messages
    assert first.level == 2  # no explanation yet
    assert first.benchmark is not None and not first.benchmark.flags, first.benchmark
    bar = ALL[cid].definition.rubric.min_speedup_lower_bound  # 1.0; vector add: parity, 0.95
    for shape in first.benchmark.shapes:
        assert shape.speedup["torch"].low > bar, (shape.name, shape.speedup)
    if "compile" in ALL[cid].definition.baselines:
        assert first.benchmark.unpaired_baselines == ["compile"]
        assert all("compile" in s.speedup for s in first.benchmark.shapes)
    second = grade_gpu(source, cid, tmp_path, explanation=from_result(first))
    assert second.level == 3, second.messages
    assert second.profile is not None and second.profile.totals["submission"].kernels >= 1
    assert second.profile.totals.get("torch") is not None  # the baselines are profiled too
    assert second.profile.report_file and Path(second.profile.report_file).exists()
    # the second grading of the same source found the first one's compiled kernels
    assert any((tmp_path / "cache" / "triton-by-source").iterdir())


LAB = ALL["c3a-softmax"].folder / "solutions" / "correct" / "lab_a1_pruned.py"


@pytest.fixture(scope="module")
def lab_profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[GradeResult, Path]:
    """The pruned lab file graded and profiled without an explanation: the student's view of
    its numbers, which the explanations below are written from."""
    tmp = tmp_path_factory.mktemp("lab")
    first = grade_gpu(LAB.read_text(), "c3a-softmax", tmp)
    assert first.verdict is Verdict.CORRECT and first.level == 2, first.messages
    return first, tmp


def test_lab_file_is_profiled_on_the_course_shape(lab_profiled: tuple[GradeResult, Path]) -> None:
    """Issue 19: Nsight on the course's 8192×4096 fp32 (the first benchmark shape), for the
    submission and every profiled baseline, with the metrics the course asks for."""
    first, _ = lab_profiled
    p = first.profile
    assert p is not None and not p.error, p
    assert (p.name, p.shape, p.dtype) == ("course-8192x4096-fp32", [8192, 4096], "float32")
    assert {"submission", "torch", "naive"} <= set(p.totals)
    for impl, t in p.totals.items():
        assert t.dram_read_bytes and t.dram_write_bytes and t.dram_pct_of_peak, (impl, t)
        assert t.occupancy_pct is not None and t.l2_hit_pct is not None, (impl, t)
    # fusion: one kernel reading x once and writing y once; the naive version several times
    assert p.totals["submission"].kernels == 1 and p.totals["naive"].kernels >= 4
    assert 200e6 < p.totals["submission"].dram_bytes < 300e6  # 2 × 134 MB, about
    assert p.totals["naive"].dram_bytes > 3 * p.totals["submission"].dram_bytes
    cite = first.citable
    assert cite is not None and cite.shape_name == "course-8192x4096-fp32"
    assert all(
        f.impl and f.shape_name and (f.dtype or f.shape_name == "geometric mean")
        for f in cite.facts
    )
    assert "What you can cite" in render(first)


def test_lab_file_explained_from_its_course_shape_numbers_reaches_level_3(
    lab_profiled: tuple[GradeResult, Path],
) -> None:
    first, tmp = lab_profiled
    text = from_result(first)
    result = grade_gpu(LAB.read_text(), "c3a-softmax", tmp, explanation=text)
    assert result.level == 3, (text, result.messages)
    assert result.explanation is not None and result.explanation.backed
    assert all(n["ok"] for n in result.explanation.numbers), result.explanation.numbers


@pytest.mark.parametrize(
    ("variant", "wrong_claims", "said"),
    [
        ({"traffic_scale": 1.3}, 1, "DRAM traffic, yours"),
        ({"swap": True}, 2, "DRAM traffic"),
        ({"only_time": True}, 1, "no checked figure of your kernel's DRAM traffic"),
    ],
)
def test_lab_file_with_a_wrong_explanation_stays_at_level_2(
    lab_profiled: tuple[GradeResult, Path],
    variant: dict[str, object],
    wrong_claims: int,
    said: str,
) -> None:
    """The same explanation with the traffic figure off by 30 %, with the naive and fused
    figures swapped, or citing only a time: level 2, one reason per wrong claim, each saying
    what was measured."""
    first, tmp = lab_profiled
    text = from_result(first, **variant)  # type: ignore[arg-type]
    result = grade_gpu(LAB.read_text(), "c3a-softmax", tmp, explanation=text)
    assert result.verdict is Verdict.CORRECT and result.level == 2, result.messages
    check = result.explanation
    assert check is not None and not check.backed
    assert len(check.messages) == wrong_claims, check.messages
    assert all(said in m for m in check.messages), check.messages
    if not variant.get("only_time"):
        assert all("measured: " in m and "course-8192x4096-fp32" in m for m in check.messages)


def test_lab_file_as_written_is_wrong_on_the_gpu(tmp_path: Path) -> None:
    lab = ALL["c3a-softmax"].folder / "solutions" / "wrong" / "lab_a1_autotune.py"
    result = grade_gpu(lab.read_text(), "c3a-softmax", tmp_path, profile=False)
    assert result.verdict is Verdict.WRONG_ANSWER
    # the messages count the wrong configs; the report names each with its widths
    assert "16 of 20 autotune configs give wrong results" in "\n".join(result.messages)
    assert "softmax_kernel(BLOCK_SIZE=256, num_warps=2): wrong for widths" in render(result)


def test_lab_file_pruned_is_correct_on_the_gpu(tmp_path: Path) -> None:
    result = grade_gpu(LAB.read_text(), "c3a-softmax", tmp_path, profile=False)
    assert result.verdict is Verdict.CORRECT, result.messages


def test_outputs_checked_on_the_gpu_after_the_child_give_the_same_grade(tmp_path: Path) -> None:
    """KGRADE_CHECK_ON_GPU: the outputs kept and checked on the GPU once the child has exited."""
    lab = ALL["c3a-softmax"].folder / "solutions" / "correct" / "lab_a1_pruned.py"
    result = grade_gpu(lab.read_text(), "c3a-softmax", tmp_path, profile=False, check_on_gpu=True)
    assert result.verdict is Verdict.CORRECT, result.messages
    assert "checks_after" in result.stages
    wrong = ALL["c3a-softmax"].folder / "solutions" / "wrong" / "lab_a1_autotune.py"
    result = grade_gpu(wrong.read_text(), "c3a-softmax", tmp_path, profile=False, check_on_gpu=True)
    assert result.verdict is Verdict.WRONG_ANSWER, result.messages


def test_side_stream_work_is_not_rewarded(tmp_path: Path) -> None:
    result = grade_gpu(
        (GPU_FIXTURES / "side_stream.py").read_text(), "c3a-softmax", tmp_path, profile=False
    )
    # streams are not on the allowlist: refused in the parent before anything runs
    assert result.verdict is Verdict.FORBIDDEN, result.messages
    assert "torch.cuda.Stream" in " ".join(result.messages)


@pytest.mark.parametrize("name", ["data_ptr_cache.py", "correct_once.py"])
def test_answers_cached_or_skipped_while_timed_are_wrong(name: str, tmp_path: Path) -> None:
    result = grade_gpu((GPU_FIXTURES / name).read_text(), "c3a-softmax", tmp_path, profile=False)
    # a cache by data_ptr also answers some correctness calls without a launch (the caching
    # allocator hands a freed clone's memory to the next): forbidden then
    assert result.verdict in {Verdict.WRONG_ANSWER, Verdict.FORBIDDEN}, result.messages


def test_a_cpu_precheck_on_a_gpu_host_names_no_gpu(tmp_path: Path) -> None:
    """Found on the 2-GPU run: precheck results carried the host's GPU UUID, though the
    interpreter graded them."""
    source = ALL["c3a-vector-add"].reference_solution.read_text()
    result = grade(source, checkpoints.get("c3a-vector-add"), GradeOptions(device="cpu"))
    assert "gpu_uuid" not in result.versions and "gpu" not in result.versions
    on_gpu = grade_gpu(source, "c3a-vector-add", tmp_path, benchmark=False)
    assert on_gpu.versions["gpu_uuid"] == str(torch.cuda.get_device_properties(0).uuid)


def test_cross_entropy_reference_keeps_its_digits_for_large_logits() -> None:
    """Found in review (2026-11-30, by emulating the compiled PTX; not yet run on a GPU): the
    lean kernel rescaled its running sum by 2^(fma(m, log2e, -round(m * log2e))), not exactly 1
    when the max did not change, and that compounded over a row's chunks: losses off by 3e-4
    at logits around 1e3, by 0.2 around 1e6, inf for rows of -1e9
    (benchmarks/ce_fma_emulation.py). Under the Triton interpreter (no fused multiply-add) the
    error does not exist, so only a GPU can check it."""
    import importlib.util

    path = ALL["c3a-cross-entropy"].reference_solution
    spec = importlib.util.spec_from_file_location("ce_ref", path)
    assert spec and spec.loader
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    g = torch.Generator(device="cuda").manual_seed(0)
    cases = {f"offset {off:g}": off for off in (1e3, 1e4, 1e6)}
    errors = {}
    for name, off in cases.items():
        x = torch.randn(16, 32000, device="cuda", generator=g) * 3 + off
        t = torch.randint(0, 32000, (16,), device="cuda", generator=g)
        want = torch.nn.functional.cross_entropy(x.double(), t)
        errors[name] = abs(float(ref.cross_entropy_triton(x, t)) - float(want))
    for fill in (-1e6, -1e9):  # every logit equal: exactly log(V)
        x = torch.full((4, 32000), fill, device="cuda")
        t = torch.tensor([0, 5, 31999, 77], device="cuda")
        errors[f"fill {fill:g}"] = abs(float(ref.cross_entropy_triton(x, t)) - 10.373491181781864)
    assert all(e < 1e-4 for e in errors.values()), errors

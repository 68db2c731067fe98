"""Compute-bound evidence (issue 23) on synthetic and recorded numbers, no GPU needed: a shape
with declared FLOPs placed on the roofline against a calibrated tensor-core ceiling, the
citable TFLOP/s and Nsight compute facts, TFLOP/s claims read and checked, the rubric that
rewards an explained loss, and memory-bound checkpoints left exactly as they were."""

from __future__ import annotations

import random
import re

import pytest
import torch

from grader import checkpoints
from grader.gpu import benchmark, gpu_stage, nsight
from grader.gpu.calibrate import Calibration
from grader.gpu.roofline import place
from grader.judge import claims, explanation, facts, rubric
from grader.models import CaseSpec, KernelMetrics, ProfileResult
from grader.plan.shapes import BenchShape

CAL = Calibration("H200|test", copy_gbps=4250.0, read_gbps=4460.0)
# the 2026-12-01 H200 probe: cuBLAS bf16 8192³ 798 TFLOP/s
PEAKS = {"bfloat16": 798.0, "float16": 768.0}
GEMM = checkpoints.get("c3a-gemm-e3")
ATTENTION = checkpoints.get("c3a-attention")
SOFTMAX = checkpoints.get("c3a-softmax")


def test_a_large_gemm_is_compute_bound_and_its_tflops_are_flops_over_time() -> None:
    n = 4096
    flops, nbytes = 2 * n**3, 3 * n * n * 2  # a, b, c in bf16
    r = place(flops, nbytes, {"submission": 198.0, "torch": 180.9}, 798.0, 4460.0)
    assert r.intensity == pytest.approx(flops / nbytes, rel=1e-3)  # 1365 FLOP/byte
    assert r.ridge == pytest.approx(798e12 / 4460e9, rel=1e-3)  # 179 FLOP/byte
    assert r.bound == "compute" and r.roof_tflops == 798.0
    assert r.tflops["submission"] == pytest.approx(flops / 198e-6 / 1e12, abs=0.1)  # 694
    assert r.tflops["torch"] == pytest.approx(760, abs=1)
    assert r.pct_of_roof == pytest.approx(100 * 694.1 / 798, abs=0.2)


def test_a_low_intensity_shape_is_memory_bound_and_its_roof_is_the_bandwidth() -> None:
    # a matrix-vector product: 2·n² flops over n² elements of bf16, 1 FLOP/byte
    n = 8192
    r = place(2 * n * n, 2 * n * n, {"submission": 40.0}, 798.0, 4460.0)
    assert r.bound == "memory"
    assert r.roof_tflops == pytest.approx(r.intensity * 4460 / 1e3, rel=1e-3)  # 4.5 TFLOP/s
    assert r.pct_of_roof == pytest.approx(100 * r.tflops["submission"] / r.roof_tflops, rel=1e-2)


def _raw(sub: float, base: float, n: int = 30) -> dict:  # type: ignore[type-arg]
    rng = random.Random(0)
    t_sub = [sub * (1 + rng.gauss(0, 0.01)) for _ in range(n)]
    t_base = [base * (1 + rng.gauss(0, 0.01)) for _ in range(n)]
    return {
        0: {
            "times": {"torch": t_base, "submission": t_sub},
            "synced": {"torch": [t + 5 for t in t_base], "submission": [t + 5 for t in t_sub]},
        }
    }


def _gemm_shape(flops: int | None) -> BenchShape:
    case = CaseSpec(name="course-4096-bf16", shape=[4096, 4096, 4096], dtype="bfloat16")
    return BenchShape(0, case, [], [], [], 3 * 4096 * 4096 * 2, flops=flops)


def _gemm_bench():  # type: ignore[no-untyped-def]
    shape = _gemm_shape(2 * 4096**3)
    return benchmark.judge([shape], _raw(198.0, 181.0), CAL, "NVIDIA H200", "torch", None, PEAKS)


def test_judge_places_a_shape_with_declared_flops_on_the_roofline() -> None:
    res = _gemm_bench()
    s = res.shapes[0]
    assert s.roofline is not None and s.roofline.bound == "compute"
    assert s.roofline.peak_tflops == 798.0
    assert s.roofline.tflops["submission"] == pytest.approx(694, abs=5)
    assert s.roofline.tflops["torch"] == pytest.approx(759, abs=5)
    assert res.compute_peaks == PEAKS and "cuBLAS 8192³" in res.compute_source
    assert s.speedup["torch"].median < 1  # it loses, and nothing flags that
    assert not res.flags


def test_a_memory_bound_shape_gets_no_roofline_even_with_ceilings_known() -> None:
    res = benchmark.judge(
        [_gemm_shape(None)], _raw(198.0, 181.0), CAL, "NVIDIA H200", "torch", None, PEAKS
    )
    assert res.shapes[0].roofline is None
    cite = facts.build(res, [], "NVIDIA H200")
    assert cite is not None
    assert not [f for f in cite.facts if f.quantity in ("tflops", "intensity")]


def test_only_the_compute_checkpoints_declare_their_work() -> None:
    assert GEMM.compute_bound and ATTENTION.compute_bound
    assert not any(
        c.compute_bound
        for cid, c in checkpoints.builtins().items()
        if cid not in (GEMM.id, ATTENTION.id)
    )
    a, b = torch.ones(64, 32, dtype=torch.float16), torch.ones(32, 16, dtype=torch.float16)
    assert GEMM.flops([a, b], torch.empty(64, 16)) == 2 * 64 * 16 * 32
    q = torch.ones(2, 4, 128, 64)
    assert ATTENTION.flops([q, q, q, 0], q) == 4 * 2 * 4 * 128 * 128 * 64
    assert ATTENTION.flops([q, q, q, 1], q) == 2 * 2 * 4 * 128 * 128 * 64
    assert SOFTMAX.flops([q], q) is None


def _profile() -> ProfileResult:
    def k(impl: str, name: str, us: float, tensor: float, sm: float) -> KernelMetrics:
        return KernelMetrics(
            impl=impl,
            name=name,
            duration_us=us,
            dram_read_bytes=187e6,
            dram_write_bytes=28e6,
            tensor_pipe_pct=tensor,
            sm_throughput_pct=sm,
        )

    kernels = [
        k("submission", "_matmul_kernel", 220.8, 75.7, 75.7),
        k("torch", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 175.9, 94.9, 94.9),
    ]
    return ProfileResult(
        shape=[4096, 4096, 4096],
        dtype="bfloat16",
        name="course-4096-bf16",
        kernels=kernels,
        totals=nsight.totals(kernels),
    )


def test_the_citable_table_has_tflops_the_ceiling_intensity_and_the_tensor_pipe() -> None:
    cite = facts.build(_gemm_bench(), [_profile()], "NVIDIA H200")
    assert cite is not None
    by = {(f.quantity, f.impl, f.label): f for f in cite.facts}
    mine = by[("tflops", "submission", "achieved TFLOP/s (FLOPs ÷ time)")]
    assert mine.value == pytest.approx(694, abs=5) and mine.text.endswith("TFLOP/s")
    assert by[("tflops", "ceiling", "tensor-core ceiling (cuBLAS, calibrated)")].value == 798.0
    assert by[("tensor_pipe", "submission", "tensor pipe active, % of peak")].value == 75.7
    assert by[("tensor_pipe", "torch", "tensor pipe active, % of peak")].value == 94.9
    assert ("intensity", "submission", "arithmetic intensity (FLOPs ÷ minimal bytes)") in by
    table = facts.tables(cite)[0]
    labels = [label for label, _ in table.rows]
    assert "achieved TFLOP/s (FLOPs ÷ time)" in labels and "tensor pipe active, % of peak" in labels
    assert any("TFLOP/s" in line for line in facts.render_lines(cite))


def test_tflops_claims_are_read_with_their_implementation() -> None:
    got = claims.read(
        "My kernel reaches 694 TFLOP/s against 760 TFLOP/s for cuBLAS, 87 % of the ceiling. "
        "Its tensor pipe is active 76 % of the time, cuBLAS's 95 %. "
        "The arithmetic intensity is 1365 FLOP/byte and the ceiling is 798 TFLOPS."
    )
    q = [(c.quantity, c.subject, round(c.value)) for c in got]
    assert q == [
        ("tflops", "submission", 694),
        ("tflops", "torch", 760),
        ("pct_of_peak", "submission", 87),  # a share of the ceiling: the subject's
        ("tensor_pipe", "submission", 76),  # "its": the sentence before's, yours
        ("tensor_pipe", "torch", 95),
        ("intensity", None, 1365),
        ("tflops", "ceiling", 798),
    ]


GOOD = (
    "My Triton GEMM reaches 694 TFLOP/s at 4096×4096×4096 bf16, 0.91× cuBLAS, which reaches 759 "
    "TFLOP/s: it is compute-bound (arithmetic intensity 1365 FLOP/byte, far right of the "
    "ridge). What limits it: its tensor pipe is active 76 % of the time, cuBLAS's 95 %; cuBLAS "
    "pipelines TMA loads and wgmma in warp-specialised kernels."
)


def test_an_explanation_of_the_gap_is_backed_and_one_with_a_wrong_tflops_figure_is_not() -> None:
    cite = facts.build(_gemm_bench(), [_profile()], "NVIDIA H200")
    rules = GEMM.definition.rubric
    good = explanation.check(GOOD, rules, cite)
    assert good.backed, good.messages
    assert all(n["ok"] for n in good.numbers)
    wrong = explanation.check(GOOD.replace("694 TFLOP/s", "850 TFLOP/s"), rules, cite)
    assert not wrong.backed
    assert any("TFLOP/s, yours" in m and "850 TFLOP/s" in m for m in wrong.messages)
    bare = explanation.check(
        "It is compute-bound and slower than cuBLAS: the tensor pipe idles, 0.91× its speed.",
        rules,
        cite,
    )
    assert not bare.backed
    assert any("compute throughput" in m for m in bare.messages)


def test_losing_to_cublas_costs_no_level_but_losing_to_the_naive_attention_does() -> None:
    lost = _gemm_bench()
    assert lost.geomean["torch"].high < 1
    assert gpu_stage.speedup_reasons(lost, GEMM) == []
    attention_lost = lost.model_copy(update={"baseline": "naive"})
    attention_lost.geomean = {"naive": lost.geomean["torch"]}
    why = gpu_stage.speedup_reasons(attention_lost, ATTENTION)
    assert why and "Not shown to beat 'naive'" in why[0]


def test_the_cpu_grade_says_what_level_3_needs_for_an_explained_gap() -> None:
    assert "losing to it costs nothing" in rubric.cpu_ceiling_message(GEMM)
    assert "faster than the 'naive' baseline" in rubric.cpu_ceiling_message(ATTENTION)
    assert "explanation of the gap" in rubric.level3_message(GEMM)


def test_compute_metrics_are_asked_of_ncu_only_for_a_compute_bound_checkpoint() -> None:
    assert nsight.TENSOR_PIPE not in ",".join(nsight.submission_args("/out/full"))
    assert nsight.TENSOR_PIPE not in ",".join(nsight.metrics_args("/out/b"))
    assert nsight.TENSOR_PIPE in ",".join(nsight.submission_args("/out/full", compute=True))
    assert nsight.SM_THROUGHPUT in ",".join(nsight.metrics_args("/out/b", compute=True))


def test_the_raw_csv_parser_reads_the_compute_metrics() -> None:
    header = [
        "ID",
        "Kernel Name",
        "gpu__time_duration.sum",
        nsight.TENSOR_PIPE,
        nsight.SM_THROUGHPUT,
    ]
    units = ["", "", "nsecond", "%", "%"]
    row = ["0", "_matmul_kernel", "220768", "75.70", "72.71"]
    text = "\n".join(",".join(f'"{c}"' for c in r) for r in (header, units, row))
    (k,) = nsight.parse_raw_csv(text)
    assert (k.duration_us, k.tensor_pipe_pct, k.sm_throughput_pct) == (220.768, 75.7, 72.71)
    assert nsight.totals([k])["unknown"].tensor_pipe_pct == 75.7


def test_the_gpu_tests_gemm_explanation_is_backed_and_its_wrong_variant_is_not() -> None:
    """tests/gpu/explain.gemm_gap (what the GPU test and benchmarks/gpu_compute.py submit),
    written from a grading's citable table, is backed by that table."""
    from grader.models import GradeResult, Verdict
    from tests.gpu.explain import gemm_gap

    result = GradeResult(checkpoint=GEMM.id, verdict=Verdict.CORRECT, level=2, device="cuda")
    result.citable = facts.build(_gemm_bench(), [_profile()], "NVIDIA H200")
    text = gemm_gap(result)
    good = explanation.check(text, GEMM.definition.rubric, result.citable)
    assert good.backed, (text, good.messages)
    kinds = {n["fact"] for n in good.numbers}
    assert {"tflops", "speedup", "intensity", "tensor_pipe"} <= kinds
    bad = explanation.check(
        gemm_gap(result, tflops_scale=1.3), GEMM.definition.rubric, result.citable
    )
    assert not bad.backed


def test_the_gpu_tests_attention_explanation_is_backed() -> None:
    from grader.models import GradeResult, Verdict
    from tests.gpu.explain import attention_win

    case = CaseSpec(name="seq4096-d128-causal-bf16", shape=[4, 16, 4096, 128], dtype="bfloat16")
    flops = 2 * 4 * 16 * 4096 * 4096 * 128
    shape = BenchShape(0, case, [], [], [], 4 * 4 * 16 * 4096 * 128 * 2, flops=flops)
    rng = random.Random(2)
    sub = [1360 * (1 + rng.gauss(0, 0.01)) for _ in range(30)]
    raw = {
        0: {
            "times": {
                "submission": sub,
                "naive": [29000 * (1 + rng.gauss(0, 0.01)) for _ in range(30)],
                "torch": [1050 * (1 + rng.gauss(0, 0.01)) for _ in range(30)],
            },
            "synced": {},
        }
    }
    raw[0]["synced"] = {k: [t + 5 for t in v] for k, v in raw[0]["times"].items()}
    bench = benchmark.judge([shape], raw, CAL, "NVIDIA H200", "naive", None, PEAKS)
    kernels = [
        KernelMetrics(impl="submission", name="_attention_kernel", duration_us=1300,
                      dram_read_bytes=201e6, dram_write_bytes=67e6),
        KernelMetrics(impl="naive", name="gemm", duration_us=28000,
                      dram_read_bytes=4.4e9, dram_write_bytes=2.2e9),
    ]  # fmt: skip
    profile = ProfileResult(
        shape=case.shape, dtype=case.dtype, name=case.name, kernels=kernels,
        totals=nsight.totals(kernels),
    )  # fmt: skip
    result = GradeResult(checkpoint=ATTENTION.id, verdict=Verdict.CORRECT, level=2, device="cuda")
    result.citable = facts.build(bench, [profile], "NVIDIA H200")
    text = attention_win(result)
    check = explanation.check(text, ATTENTION.definition.rubric, result.citable)
    assert check.backed, (text, check.messages)
    assert gpu_stage.speedup_reasons(bench, ATTENTION) == []


@pytest.mark.parametrize(
    ("text", "quantity", "value"),
    [
        ("my kernel reaches 694 TFLOPS", "tflops", 694),
        ("my kernel reaches 0.69 PFLOP/s", "tflops", 690),
        ("my kernel reaches 694000 GFLOP/s", "tflops", 694),
        ("the intensity is 1365 FLOP/B", "intensity", 1365),
        ("the intensity is 1365 flops per byte", "intensity", 1365),
        ("its SM throughput is 72 %", "sm_throughput", 72),
        ("the SMs are busy 72 % of the time", "sm_throughput", 72),
        ("its tensor pipe is active 76 % of the time", "tensor_pipe", 76),
    ],
)
def test_the_compute_units_of_the_docs_are_read(text: str, quantity: str, value: float) -> None:
    (c,) = claims.read(text)
    assert (c.quantity, round(c.value)) == (quantity, value)


def test_the_report_shows_each_shapes_roofline_and_the_ceilings() -> None:
    from grader.judge.report import render
    from grader.models import GradeResult, Verdict

    result = GradeResult(checkpoint=GEMM.id, verdict=Verdict.CORRECT, level=2, device="cuda")
    result.benchmark = _gemm_bench()
    text = render(result)
    assert "tensor-core ceilings: measured here: cuBLAS 8192³ matmul" in text
    line = r"roofline: 69\d TFLOP/s \(torch 7[56]\d\), 87 % of the roof 798 TFLOP/s"
    assert re.search(line, text)
    assert "compute-bound (ridge 179)" in text


def test_the_level_3_words_name_the_checkpoints_own_speedup_bound() -> None:
    """Vector add's rubric asks only to match torch (lower bound above 0.95); its level-3
    message said "faster than the 'torch' baseline with the lower bound above 1" on a 0.997×
    grading on the H200 (2026-12-02-h200-issue33-refs.log)."""
    vector_add = checkpoints.get("c3a-vector-add")
    for text in (rubric.level3_message(vector_add), rubric.cpu_ceiling_message(vector_add)):
        assert "0.95" in text and "faster than" not in text and "above 1" not in text, text
    softmax = checkpoints.get("c3a-softmax")
    assert "faster than the 'torch' baseline" in rubric.level3_message(softmax)
    assert "above 1" in rubric.level3_message(softmax)

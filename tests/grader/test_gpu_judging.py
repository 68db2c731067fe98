"""The GPU stage's judgement, on recorded or synthetic numbers (no GPU needed): statistics,
roofline and side-stream flags, the Nsight CSV parser and the explanation check."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from grader import checkpoints
from grader.gpu import benchmark, nsight
from grader.gpu.calibrate import Calibration
from grader.judge import explanation, facts
from grader.models import (
    BenchmarkResult,
    CaseSpec,
    ImplTotals,
    KernelMetrics,
    ProfileResult,
    Ratio,
    RubricSpec,
    ShapeBenchmark,
)
from grader.plan.shapes import BenchShape

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ncu_raw_h200.csv"
CAL = Calibration("H200|test", copy_gbps=4250.0, read_gbps=4460.0)


def test_median_ci_brackets_the_median_and_narrows_with_samples() -> None:
    rng = random.Random(1)
    small = benchmark.median_ci([1.5 + rng.gauss(0, 0.05) for _ in range(11)])
    large = benchmark.median_ci([1.5 + rng.gauss(0, 0.05) for _ in range(401)])
    for r in (small, large):
        assert r.low <= r.median <= r.high
    assert (large.high - large.low) < (small.high - small.low)
    assert abs(large.median - 1.5) < 0.02


def test_geomean_ci_of_two_shapes() -> None:
    r = benchmark.geomean_ci([[[2.0] * 20], [[0.5] * 20]])
    assert r.median == pytest.approx(1.0)
    assert r.low == pytest.approx(1.0) and r.high == pytest.approx(1.0)


def _shape(nbytes: int) -> BenchShape:
    return BenchShape(0, CaseSpec(name="s", shape=[8192, 4096]), [], [], [], nbytes)


def _raw(sub: float, base: float, sub_gap: float = 5.0, n: int = 30) -> dict:  # type: ignore[type-arg]
    rng = random.Random(0)
    t_sub = [sub * (1 + rng.gauss(0, 0.01)) for _ in range(n)]
    t_base = [base * (1 + rng.gauss(0, 0.01)) for _ in range(n)]
    return {
        0: {
            "times": {"torch": t_base, "submission": t_sub},
            "synced": {
                "torch": [t + 5.0 for t in t_base],
                "submission": [t + sub_gap for t in t_sub],
            },
        }
    }


def test_judge_reports_speedup_bandwidth_and_fraction_of_peak() -> None:
    nbytes = 268_435_456  # 8192×4096 fp32 read + written
    res = benchmark.judge([_shape(nbytes)], _raw(70.0, 110.0), CAL, "NVIDIA H200", "torch")
    s = res.shapes[0]
    assert s.speedup["torch"].median == pytest.approx(110 / 70, rel=0.03)
    assert s.speedup["torch"].low > 1.4
    assert s.gbps == pytest.approx(nbytes / 70e-6 / 1e9, rel=0.03)
    assert s.pct_of_peak == pytest.approx(100 * s.gbps / 4460, rel=0.01)
    assert not res.flags and res.gpu_model == "h200"
    assert res.geomean["torch"].low > 1.4


def test_the_round_by_round_ratios_behind_the_median_are_kept_in_order() -> None:
    raw = _raw(70.0, 110.0, n=20)
    res = benchmark.judge([_shape(1_000_000)], raw, CAL, "NVIDIA H200", "torch")
    times = raw[0]["times"]
    expected = [round(b / s, 4) for b, s in zip(times["torch"], times["submission"], strict=True)]
    assert res.shapes[0].paired == expected


def test_fewer_timed_rounds_than_checked_outputs_need_are_refused() -> None:

    with pytest.raises(ValueError, match="timed rounds"):
        benchmark.plan(checkpoints.get("c3a-vector-add"), 1, "cpu", rounds=2 * benchmark.VERIFY - 1)
    for seed in range(50):
        verify = benchmark.checked_rounds(random.Random(seed), 12)
        assert len(set(verify)) == benchmark.VERIFY and min(verify) >= 6 and max(verify) < 12


def test_a_time_below_the_roofline_floor_is_flagged() -> None:
    # 268 MB in 20 µs would be 13 TB/s on a 4.8 TB/s card
    res = benchmark.judge([_shape(268_435_456)], _raw(20.0, 110.0), CAL, "NVIDIA H200", "torch")
    assert res.shapes[0].below_roofline
    assert any("below the roofline floor" in f for f in res.flags)


def test_the_gap_is_measured_against_the_submissions_own_process() -> None:
    """With the baselines timed by the parent (turns.py), the child's own gap with nothing
    pending is the reference: a process that synchronizes 35 µs slower is not flagged (an
    honest lab file was, on the H200, 32 µs against the parent's baselines), but work left
    running after the end event still is."""
    raw = _raw(100.0, 110.0, sub_gap=40.0)
    raw[0]["null"] = {"gap": [35.0] * 30}
    res = benchmark.judge([_shape(1_000_000)], raw, CAL, "NVIDIA H200", "torch")
    assert res.shapes[0].outside_stream_us == 5.0 and not res.flags
    raw = _raw(100.0, 110.0, sub_gap=95.0)
    raw[0]["null"] = {"gap": [5.0] * 30}
    res = benchmark.judge([_shape(1_000_000)], raw, CAL, "NVIDIA H200", "torch")
    assert any("after the timed region" in f for f in res.flags)


def test_work_finishing_after_the_timed_region_is_flagged() -> None:
    res = benchmark.judge(
        [_shape(1_000_000)], _raw(3.0, 110.0, sub_gap=95.0), CAL, "NVIDIA H200", "torch"
    )
    assert res.shapes[0].outside_stream_us > 80
    assert any("after the timed region" in f for f in res.flags)


def test_parses_a_real_ncu_raw_csv_from_an_h200() -> None:
    kernels = nsight.parse_raw_csv(FIXTURE.read_text())
    totals = nsight.totals(kernels)
    assert totals["naive"].kernels == 5
    assert totals["torch"].kernels == 2  # randn + softmax in that recording
    soft = next(k for k in kernels if "SoftMaxForward" in k.name)
    assert soft.dram_read_bytes == 67_123_200 and soft.duration_us == pytest.approx(54.912)
    assert soft.registers == 30 and soft.occupancy_pct == pytest.approx(93.41)
    text = " ".join(nsight.summary(totals))
    assert "naive PyTorch: 5 kernels" in text


def test_profile_refuses_a_symlinked_report(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("host file")
    link = tmp_path / "metrics.ncu-rep"
    link.symlink_to(secret)
    with pytest.raises(nsight.ProfileError):
        nsight.take_report(link, tmp_path / "copy.ncu-rep")
    assert not (tmp_path / "copy.ncu-rep").exists()


def _bench() -> BenchmarkResult:
    shape = ShapeBenchmark(
        name="course",
        shape=[8192, 4096],
        dtype="float32",
        rounds=50,
        times_us={"submission": 69.6, "torch": 110.0, "naive": 354.0},
        speedup={
            "torch": Ratio(median=1.58, low=1.55, high=1.6),
            "naive": Ratio(median=5.1, low=5.0, high=5.2),
        },
        minimal_bytes=268_435_456,
        gbps=3857.0,
        pct_of_peak=86.5,
    )
    return BenchmarkResult(
        gpu="NVIDIA H200",
        gpu_model="h200",
        peak_gbps=4460,
        peak_source="t",
        baseline="torch",
        shapes=[shape],
        geomean={"torch": Ratio(median=1.58, low=1.55, high=1.6)},
    )


def _profile() -> ProfileResult:
    return ProfileResult(
        name="course",
        shape=[8192, 4096],
        dtype="float32",
        totals={
            "submission": ImplTotals(
                kernels=1, duration_us=70, dram_bytes=241e6, dram_pct_of_peak=79
            ),
            "naive": ImplTotals(kernels=5, duration_us=350, dram_bytes=1004e6, dram_pct_of_peak=60),
            "torch": ImplTotals(kernels=1, duration_us=110, dram_bytes=241e6, dram_pct_of_peak=48),
        },
    )


RUBRIC = RubricSpec(
    explanation_points={
        "mechanism": ["fusion", "fused"],
        "memory_bound": ["memory-bound"],
        "why_not_gemm": ["gemm"],
    }
)
GOOD = (
    "Softmax is memory-bound, so the fused kernel wins by reading x once and writing y once: "
    "the naive version moves 4.2x more DRAM traffic (1.0 GB against 241 MB). It reaches "
    "3857 GB/s, 87% of peak, and is 1.58x faster than torch.softmax. I chose a memory-bound "
    "op over GEMM because cuBLAS wins GEMM on SM_120 without TMEM."
)


def test_a_profile_that_misses_most_of_the_timed_work_is_no_evidence() -> None:
    bench, profile = _bench(), _profile()
    assert nsight.unaccounted(profile, bench) is None  # 70 µs profiled, 69.6 µs timed
    profile.totals["submission"].duration_us = 12.0  # e.g. it stopped the profiler itself
    said = nsight.unaccounted(profile, bench)
    assert said is not None and "12.0 µs" in said and "69.6 µs" in said


def test_a_timing_below_what_nsight_measured_is_not_believed() -> None:
    """Issue 18: the timed time of a call is checked against Nsight's, measured outside the
    child, for the same kernels at the same shape."""
    bench, profile = _bench(), _profile()
    assert nsight.timing_disagrees(profile, bench) == []  # 69.6 µs timed, 70 µs profiled
    profile.totals["submission"].duration_us = 90.0  # timed 23 % faster than its kernels
    (said,) = nsight.timing_disagrees(profile, bench)
    assert "69.6 µs" in said and "90.0 µs" in said and "no speedup" in said
    profile = _profile()
    bench.shapes[0].times_us["torch"] = 3 * profile.totals["torch"].duration_us
    (said,) = nsight.timing_disagrees(profile, bench)
    assert "torch baseline" in said


def test_kernels_not_the_submissions_own_are_named() -> None:
    """Issue 18: what the profiled call launched, seen by Nsight outside the child: the file's
    Triton kernels, torch's fills and copies, and its checkpoint's epilogue; nothing else."""
    profile = _profile()
    mine = KernelMetrics(
        impl="submission",
        name="_softmax_kernel",
        duration_us=70,
        dram_read_bytes=134e6,
        dram_write_bytes=107e6,
    )
    profile.kernels.append(mine)
    names = frozenset({"_softmax_kernel"})
    assert nsight.foreign_kernels(profile, names, []) == []
    extra = [
        "void vectorized_elementwise_kernel<4, FillFunctor<float>, std::array<char *, 1>>(int)",
        "void unrolled_elementwise_kernel<direct_copy_kernel_cuda(TensorIteratorBase &)>",
        "void reduce_kernel<512, 1, ReduceOp<float, MeanOps<float, float, float, float>>>(T3)",
        "void cunn_SoftMaxForward<4, float, float, float>(T1 *, const T2 *, int)",
    ]
    for name in extra:
        profile.kernels.append(mine.model_copy(update={"name": name}))
    assert nsight.foreign_kernels(profile, names, ["mean"]) == [extra[3]]
    assert nsight.foreign_kernels(profile, names, []) == sorted([extra[2], extra[3]])


def _cite():  # type: ignore[no-untyped-def]
    return facts.build(_bench(), [_profile()])


def test_a_backed_explanation_passes() -> None:
    check = explanation.check(GOOD, RUBRIC, _cite())
    assert check.backed, check.messages
    kinds = {n["kind"] for n in check.numbers if n.get("checked")}
    assert {"traffic_ratio", "traffic", "bandwidth", "pct_of_peak", "speedup"} <= kinds


def test_a_wrong_number_is_named_with_the_measurement() -> None:
    check = explanation.check(
        GOOD.replace("4.2x more DRAM traffic", "3.1x more DRAM traffic"), RUBRIC, _cite()
    )
    assert not check.backed
    assert any("3.1x" in m and "4.17×" in m for m in check.messages), check.messages


def test_a_missing_point_is_reported() -> None:
    """(Issue 30: "matmul" for GEMM now meets the point — the same idea in other words — so
    the point is taken out by dropping its sentence, not by a synonym.)"""
    text = GOOD.replace(
        " I chose a memory-bound op over GEMM because cuBLAS wins GEMM on SM_120 without TMEM.", ""
    )
    check = explanation.check(text, RUBRIC, _cite())
    assert not check.backed and check.points["why_not_gemm"] is False
    matmul = explanation.check(GOOD.replace("GEMM", "matmul"), RUBRIC, _cite())
    assert matmul.points["why_not_gemm"] is True


def test_an_explanation_without_numbers_is_not_backed() -> None:
    text = "It is fused and memory-bound, unlike GEMM, so it is faster."
    check = explanation.check(text, RUBRIC, _cite())
    assert not check.backed
    assert any("cites no checked figure of your kernel's DRAM traffic" in m for m in check.messages)
    assert any("cites no checked figure of your kernel's speed" in m for m in check.messages)


def test_shapes_are_not_mistaken_for_ratios() -> None:
    check = explanation.check(GOOD + " Measured at 8192×4096.", RUBRIC, _cite())
    assert check.backed, check.messages


def test_a_baseline_timed_apart_is_judged_against_every_submission_round() -> None:
    """torch.compile is timed by the parent, not paired: its ratio is its median time over each
    of the submission's rounds, and the result names it as timed apart."""
    sub = [10.0, 10.5, 9.5, 10.2, 9.8] * 6
    raw = {
        0: {
            "times": {"torch": [20.0] * 30, "submission": sub},
            "synced": {"torch": [25.0] * 30, "submission": [t + 5.0 for t in sub]},
        }
    }
    b = benchmark.judge(
        [_shape(1 << 20)],
        raw,
        CAL,
        "NVIDIA H200",
        "torch",
        {0: {"compile": [15.0, 14.0, 16.0] * 10}},
    )
    s = b.shapes[0]
    assert s.times_us["compile"] == 15.0
    assert s.speedup["compile"].median == pytest.approx(15.0 / 10.0)
    assert s.speedup["compile"].low < 1.5 < s.speedup["compile"].high
    assert b.geomean["compile"].median == pytest.approx(1.5)
    assert b.unpaired_baselines == ["compile"]
    assert b.geomean["torch"].median == pytest.approx(2.0, rel=0.01)  # the paired one unchanged


def test_phase_frames_are_kept_as_diagnostics_and_bounded() -> None:
    import io

    from grader.judge.collect import Collector
    from grader.sandbox.harness import wire

    buf = io.BytesIO()
    for i in range(20):
        wire.write_frame(buf, {"type": "phase", "name": f"p{i}" * 30, "seconds": i})
    wire.write_frame(buf, {"type": "phase", "name": 3, "seconds": "x"})
    buf.seek(0)
    c = Collector([], {}, 1 << 20)
    c(buf)
    assert len(c.result.phases) == 8
    assert all(len(k) <= 20 for k in c.result.phases)


def test_kept_triton_cache_is_per_source_and_trimmed(tmp_path: Path) -> None:
    from grader.sandbox import job

    a = job.source_cache(tmp_path, "src A", "cpu")
    assert a == job.source_cache(tmp_path, "src A", "cpu")
    assert a != job.source_cache(tmp_path, "src A ", "cpu")
    a.mkdir()
    (a / "small").write_bytes(b"x" * 10)
    job.trim_kept_cache(a)
    assert a.exists()
    (a / "big").write_bytes(b"x" * (job.KEPT_CACHE_LIMIT + 1))
    job.trim_kept_cache(a)
    assert not a.exists()


def test_measurement_cache_files_survive_garbage_and_round_trip(tmp_path: Path) -> None:
    from grader import cachefile

    path = tmp_path / "home" / "calibration.json"
    assert cachefile.load(None) == {} and cachefile.load(path) == {}
    cachefile.store(path, {"H200|driver 1": {"copy_gbps": 4176.0}})
    assert cachefile.load(path) == {"H200|driver 1": {"copy_gbps": 4176.0}}
    assert [p.name for p in path.parent.iterdir()] == ["calibration.json"]  # no temp left
    path.write_text('{"torn": ')
    assert cachefile.load(path) == {}
    path.write_text("[1, 2]")
    assert cachefile.load(path) == {}


def test_the_report_says_when_kept_baseline_profiles_were_measured() -> None:
    from grader.judge.report import render
    from grader.models import GradeResult, KernelMetrics, Verdict

    profile = _profile()
    profile.kernels = [
        KernelMetrics(
            impl="torch", name="softmax", duration_us=110.0, dram_read_bytes=1, dram_write_bytes=1
        )
    ]
    result = GradeResult(
        checkpoint="c3a-softmax", verdict=Verdict.CORRECT, level=3, device="cuda", profile=profile
    )
    assert "baselines profiled" not in render(result)  # measured in this very grading
    profile.baselines_measured = "2026-11-29 23:16 UTC"
    assert "baselines profiled 2026-11-29 23:16 UTC" in render(result)


def test_the_report_names_the_configs_the_profiled_call_ran() -> None:
    from grader.judge.report import render
    from grader.models import GradeResult, KernelMetrics, Verdict

    profile = _profile()
    profile.kernels = [
        KernelMetrics(
            impl="submission",
            name="softmax_kernel",
            duration_us=39.0,
            dram_read_bytes=1,
            dram_write_bytes=1,
        )
    ]
    result = GradeResult(
        checkpoint="c3a-softmax", verdict=Verdict.CORRECT, level=3, device="cuda", profile=profile
    )
    assert "autotuner picked" not in render(result)  # nothing autotuned: nothing to name
    profile.configs = ["softmax_kernel(BLOCK_SIZE=4096, num_warps=8)"]
    assert (
        "your call ran the configs your autotuner picked while timed: "
        "softmax_kernel(BLOCK_SIZE=4096, num_warps=8)"
    ) in render(result)


def test_the_cross_checks_flag_no_honest_grading_of_the_h200_record() -> None:
    """The timing and kernel cross-checks, replayed on every profiled grading of the
    references and the lab file in the 2026-12-01 H200 record: none of them is flagged."""
    import json
    import tarfile

    from grader.judge.static import check
    from grader.models import GradeResult

    record = FIXTURE.parents[2] / "benchmarks" / "results" / "2026-12-01-h200-trust-1-gradings.tgz"
    softmax = checkpoints.get("c3a-softmax")
    lab = softmax.folder / "solutions" / "correct" / "lab_a1_pruned.py"
    own = {
        cid: frozenset(check(cp.reference_solution.read_text(), cp.definition.entry).kernels)
        for cid, cp in checkpoints.builtins().items()
    }
    own["c3a-softmax"] |= frozenset(check(lab.read_text(), "softmax_triton").kernels)
    seen = 0
    with tarfile.open(record) as tar:
        for member in tar.getmembers():
            fp = tar.extractfile(member)
            if fp is None:
                continue
            result = GradeResult.model_validate(json.load(fp)["result"])
            if result.profile is None or result.benchmark is None:
                continue
            ops = checkpoints.get(result.checkpoint).definition.allowed_torch_ops
            for p in [result.profile, *result.extra_profiles]:
                assert nsight.timing_disagrees(p, result.benchmark) == []
                assert nsight.foreign_kernels(p, own[result.checkpoint], ops) == []
                seen += 1
    assert seen >= 10

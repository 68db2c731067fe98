"""Issue 29: the Nsight replay is a grading run as the submission sees it, its output is
checked, and a profile that is not of the timed work costs level 3 with its reason. The
replay's calls run on the CPU here (bench._as_graded); the profile's judgement on synthetic
numbers (no GPU, no ncu)."""

from __future__ import annotations

from collections import Counter

import torch

from grader import checkpoints
from grader.gpu import gpu_stage, nsight
from grader.judge.collect import Collector
from grader.models import (
    BenchmarkResult,
    GradeResult,
    ImplTotals,
    KernelMetrics,
    ProfileResult,
    ShapeBenchmark,
    Verdict,
)
from grader.sandbox.harness import wire
from tests.grader.fake_gpu import bench

SOFTMAX = checkpoints.get("c3a-softmax")


def test_the_replay_makes_a_gradings_calls_before_the_profiled_one() -> None:
    """A replay that called the entry three times on one object, with no correctness call
    first, was recognisable: a submission could run a leaner pipeline there."""
    d = SOFTMAX.definition
    shapes: list[tuple[int, ...]] = []
    kept: list[torch.Tensor] = []

    def entry(x: torch.Tensor) -> torch.Tensor:
        assert not any(x is k for k in kept) and x.storage_offset() >= 0
        shapes.append(tuple(x.shape))
        kept.append(x)
        return torch.softmax(x.double(), dim=-1).to(x.dtype)

    small = [c.model_copy(update={"shape": [min(n, 64) for n in c.shape]}) for c in d.gpu_cases]
    bench_case = d.benchmark_shapes[0].model_copy(update={"shape": [8, 128]})
    spec = {
        "mimic": [c.model_dump() for c in small for _ in range(d.draws_per_case)],
        "warmup": 3,
        "fresh": {"case": bench_case.model_dump(), "families": d.families()},
    }
    problem = bench.load_problem(str(SOFTMAX.folder / "problem.py"))
    bench._as_graded(entry, problem, spec, "cpu")
    counts = Counter(shapes)
    for c in small:  # every case, each as often as a grading draws it
        assert counts[tuple(c.shape)] >= d.draws_per_case
    assert 3 <= counts[(8, 128)] <= 6  # a warm-up of drawn length on the profiled shape
    assert len({k.data_ptr() for k in kept}) >= len(kept) - 2


def _bench(minimal: int = 268_435_456, took: float = 70.0) -> BenchmarkResult:
    shape = ShapeBenchmark(
        name="course",
        shape=[8192, 4096],
        dtype="float32",
        rounds=50,
        times_us={"submission": took, "torch": 110.0},
        minimal_bytes=minimal,
        gbps=minimal / took / 1e3,
        pct_of_peak=80.0,
        speedup={},
    )
    return BenchmarkResult(
        gpu="H200",
        gpu_model="h200",
        peak_gbps=4460.0,
        peak_source="t",
        baseline="torch",
        shapes=[shape],
    )


def _profile(dram: float, kernels: int = 1, duration: float = 65.0) -> ProfileResult:
    names = [
        KernelMetrics(
            name="_softmax_kernel",
            impl="submission",
            duration_us=duration / kernels,
            dram_read_bytes=dram / 2,
            dram_write_bytes=dram / 2,
        )
        for _ in range(kernels)
    ]
    return ProfileResult(
        shape=[8192, 4096],
        dtype="float32",
        name="course",
        kernels=names,
        totals={"submission": ImplTotals(kernels=kernels, duration_us=duration, dram_bytes=dram)},
    )


def test_a_profile_moving_less_than_the_work_needs_is_not_of_the_timed_work() -> None:
    bench_ = _bench()
    assert nsight.traffic_disagrees(_profile(2.7e8), bench_) == []
    lean = nsight.traffic_disagrees(_profile(0.9e8), bench_)
    assert lean and "less than 50%" in lean[0] and "90.0 MB" in lean[0]


def test_a_profile_moving_more_than_the_timed_time_allows_is_not_of_the_timed_work() -> None:
    # 268 MB in 70 µs is 3.8 TB/s; 800 MB would be 11 TB/s on a 4.5 TB/s card
    why = nsight.traffic_disagrees(_profile(8e8), _bench())
    assert why and "cannot move" in why[0] and "4460 GB/s" in why[0]


def test_a_kernel_count_unlike_the_checked_calls_is_named() -> None:
    kernels = frozenset({"_softmax_kernel"})
    assert nsight.kernel_count_disagrees(_profile(2.7e8, 1), kernels, [1, 1, 1]) is None
    why = nsight.kernel_count_disagrees(_profile(2.7e8, 1), kernels, [3, 3])
    assert why and "1 launch(es)" in why and "launched 3–3" in why


def _replay_collector() -> tuple[Collector, torch.Tensor]:
    ref = torch.softmax(torch.randn(4, 8, dtype=torch.float64), -1).float()
    said = Collector([], SOFTMAX.definition.tolerances, 1 << 20)
    said.expect([], {0: [ref]})
    return said, ref


def _send(said: Collector, out: torch.Tensor) -> None:
    import io

    buf = io.BytesIO()
    header = {"type": "bench_output", "shape": 0, "round": 0, "set": 0}
    wire.write_frame(buf, {**header, "tensor": wire.tensor_meta(out)}, wire.tensor_bytes(out))
    buf.seek(0)
    said(buf)


def test_the_profiled_calls_output_is_checked_and_a_wrong_one_costs_level_3() -> None:
    said, ref = _replay_collector()
    _send(said, ref.clone())
    assert gpu_stage._replay_checked(said) is None
    said, ref = _replay_collector()
    _send(said, torch.zeros_like(ref))
    why = gpu_stage._replay_checked(said)
    assert why and why.startswith("its output was wrong")
    p = _profile(2.7e8)
    p.output_check = why
    result = GradeResult(checkpoint="c3a-softmax", verdict=Verdict.CORRECT, level=2, device="cuda")
    reasons = gpu_stage._evidence(p, _bench(), result, frozenset({"_softmax_kernel"}), [])
    assert any("checked like a timed one" in r and "its output was wrong" in r for r in reasons)
    silent = Collector([], SOFTMAX.definition.tolerances, 1 << 20)
    assert gpu_stage._replay_checked(silent) == "its output never came back"

"""Write an explanation the way a student would: from the 'What you can cite' table of their
own grading — the course shape's Nsight numbers (DRAM traffic of their kernel and of the naive
version, the ratio) and the benchmark's speedup over torch there. Not the occupancy: an
autotuned kernel may pick another config when graded again (on the H200 the lab file's
occupancy moved 32 % between two gradings), and the explanation is checked against the new
grading's numbers. The keyword arguments make the wrong variants the GPU tests expect to stay
at level 2."""

from __future__ import annotations

from dataclasses import dataclass

from grader.judge import facts
from grader.models import Fact, GradeResult

OPS = {
    "c3a-softmax": "softmax",
    "c3a-rmsnorm": "RMSNorm",
    "c3a-cross-entropy": "cross-entropy",
    "c3a-vector-add": "vector add",
}


# What each checkpoint's definition asks the explanation to address besides the mechanism.
POINTS = {
    "c3a-rmsnorm": "The sum of squares uses fp32 accumulation even for bf16 inputs.",
    "c3a-cross-entropy": "For stability it keeps a running max and subtracts the max before "
    "exp, an online logsumexp over vocabulary chunks.",
    "c3a-vector-add": "Every block is masked, so the tail past the last full block is safe.",
}


def fact(result: GradeResult, quantity: str, impl: str, label: str = "", versus: str = "") -> Fact:
    """A fact of the course shape (the citable table's first)."""
    cite = result.citable
    assert cite is not None, "no citable table: was the grading profiled?"
    return next(
        f
        for f in cite.facts
        if f.quantity == quantity
        and f.impl == impl
        and f.shape_name == cite.shape_name
        and label in f.label
        and (f.versus or "") == versus
    )


@dataclass(frozen=True)
class Figures:
    """The course shape's figures an explanation quotes, as its citable table words them."""

    where: str  # the shape in words
    mine: Fact  # the submission's DRAM traffic
    naive: Fact  # the naive version's
    ratio: Fact  # the traffic ratio, naive over the submission's
    speed: Fact  # the speedup over torch
    took: Fact  # the submission's time


def figures(result: GradeResult) -> Figures:
    cite = result.citable
    assert cite is not None, "no citable table: was the grading profiled?"
    return Figures(
        where=facts.shape_text(cite.shape, cite.dtype),
        mine=fact(result, "traffic", "submission", "read + written"),
        naive=fact(result, "traffic", "naive", "read + written"),
        ratio=fact(result, "traffic_ratio", "submission", versus="naive"),
        speed=fact(result, "speedup", "submission", versus="torch"),
        took=fact(result, "time", "submission", "timed calls"),
    )


def from_result(
    result: GradeResult,
    *,
    traffic_scale: float = 1.0,
    swap: bool = False,
    only_time: bool = False,
) -> str:
    """`traffic_scale`: the submission's DRAM traffic figure multiplied (1.3: off by 30 %);
    `swap`: the naive version's and the submission's traffic figures exchanged; `only_time`:
    no number but the submission's time."""
    f = figures(result)
    where, mine, naive, ratio, speed, took = f.where, f.mine, f.naive, f.ratio, f.speed, f.took
    mine_text, naive_text = facts.size_text(mine.value * traffic_scale), naive.text
    if swap:
        mine_text, naive_text = naive_text, mine_text
    op = OPS.get(result.checkpoint, "This op")
    # (issue 30: "fewer round-trips than the naive version" is a claim, checked against the
    # measured traffic ratio: vector add's naive version is one kernel too, 1.00×)
    trips = (
        "with fewer DRAM round-trips than the naive version's separate kernels"
        if ratio.value > 1.05
        else "with no more DRAM round-trips than the naive version"
    )
    head = (
        f"{op} is memory-bound: about one FLOP per byte, far below the ridge point, so its "
        "time is the time to move its bytes. My kernel is fused: one pass that reads each "
        f"input once and writes the output once, {trips}, so it runs near the bandwidth "
        "ceiling. "
    )
    tail = (
        " I chose a memory-bound op rather than GEMM because on an SM_120 card without TMEM "
        "cuBLAS wins dense GEMM. " + POINTS.get(result.checkpoint, "")
    )
    if only_time:
        return head + f"On the course shape ({where}) my kernel takes {took.text}." + tail
    return (
        head + f"On the course shape ({where}), Nsight Compute shows my kernel moving {mine_text} "
        f"of DRAM traffic against {naive_text} for the naive version, {ratio.text} less "
        f"traffic. It is {speed.text} faster "
        "than torch there." + tail
    )


def _at(result: GradeResult, quantity: str, impl: str, label: str = "", versus: str = "") -> Fact:
    """A fact of the course shape, or of the geometric mean for a speedup the shape lacks."""
    try:
        return fact(result, quantity, impl, label, versus)
    except StopIteration:
        cite = result.citable
        assert cite is not None
        return next(
            f
            for f in cite.facts
            if f.quantity == quantity and f.impl == impl and (f.versus or "") == versus
        )


def gemm_gap(result: GradeResult, *, tflops_scale: float = 1.0) -> str:
    """c3a-gemm-e3's explanation of the loss to cuBLAS, from the course shape's measurements
    (the roofline's TFLOP/s, the speed ratio, Nsight's tensor pipe). `tflops_scale`: the
    submission's TFLOP/s figure multiplied (1.3: off by 30 %)."""
    mine = fact(result, "tflops", "submission", "achieved")
    theirs = fact(result, "tflops", "torch", "achieved")
    ceiling = fact(result, "tflops", "ceiling")
    intensity = fact(result, "intensity", "submission")
    speed = fact(result, "speedup", "submission", versus="torch")
    pipe = ""
    try:
        ours, cublas = (
            fact(result, "tensor_pipe", "submission"),
            fact(result, "tensor_pipe", "torch"),
        )
        pipe = f" Its tensor pipe is active {ours.text} of the time, cuBLAS's {cublas.text}."
    except StopIteration:
        pass
    return (
        f"My Triton GEMM reaches {mine.value * tflops_scale:.0f} TFLOP/s. It runs at "
        f"{speed.text} the speed of cuBLAS, which reaches {theirs.text}. A GEMM this large is "
        f"compute-bound: its arithmetic intensity is {intensity.text}, far right of the ridge "
        f"point, so its roof is the tensor-core ceiling of {ceiling.text}.{pipe} What limits "
        "it: cuBLAS pipelines TMA loads into warp-specialised wgmma kernels with larger tiles, "
        "which this plain tile loop does not, so it loses."
    )


def attention_win(result: GradeResult) -> str:
    """c3a-attention's explanation: the win over the materialized version (traffic and speed,
    at the profile shape) and the gap to cuDNN's SDPA."""
    mine = fact(result, "traffic", "submission", "read + written")
    naive = fact(result, "traffic", "naive", "read + written")
    over_naive = _at(result, "speedup", "submission", versus="naive")
    over_sdpa = _at(result, "speedup", "submission", versus="torch")
    return (
        "With an online softmax over K/V tiles (a running max, the output rescaled) the scores "
        f"never leave the chip: my kernel moves {mine.text} of DRAM traffic, the naive version "
        f"{naive.text}. My kernel is {over_naive.text} faster than the naive version. It runs "
        f"at {over_sdpa.text} the speed of SDPA (cuDNN). At this arithmetic intensity "
        "attention is compute-bound: the tensor cores are the roof."
    )

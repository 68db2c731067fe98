"""The parent's side of the GPU benchmark: plan inputs, judge the child's raw times.

Speedup = baseline time / submission time, paired per round (both measured back to back on the
same inputs, in alternating order), reported as the median of the paired ratios with a 95 %
distribution-free confidence interval (order statistics of the binomial); across shapes, the
geometric mean of the per-shape speedups with a bootstrap interval. A shape whose rounds draw
several input families takes the geometric mean of the families' medians (`by_family`).
"""

from __future__ import annotations

import math
import random
import statistics

import torch

from grader.checkpoints import Checkpoint
from grader.gpu import gpus, roofline
from grader.gpu.calibrate import Calibration
from grader.models import BenchmarkResult, CaseSpec, Ratio, ShapeBenchmark
from grader.plan.shapes import ROUNDS, SETS, VERIFY, BenchShape

# A submission whose work finishes this much after its end event (beyond what the baseline
# shows for the same synchronize) did work outside the timed stream.
OUTSIDE_STREAM_US = 20.0
# A shape that moves at most 1/SMALL_SHAPE_BYTES of the checkpoint's largest shape's bytes is
# timed over SMALL_SHAPE_ROUNDS times the rounds: a call of a few µs, where a microsecond of
# jitter is several per cent, moved the lab file's speedup by 1.4 % over six gradings on the
# H200 with 50 rounds (issue 29); its rounds cost little GPU time. Memory-bound checkpoints
# only: a compute-bound shape's time is its FLOPs', not its bytes'.
SMALL_SHAPE_BYTES = 8
SMALL_SHAPE_ROUNDS = 4


def draws_on_gpu(checkpoint: Checkpoint, case: CaseSpec) -> bool:
    """The checkpoint's make_inputs can draw a timed round's inputs on the GPU (from a CUDA
    generator, onto the GPU): then every round gets fresh inputs."""
    if not torch.cuda.is_available():
        return False
    small = case.model_copy(update={"shape": [min(n, 8) for n in case.shape]})  # no GBs
    try:
        got = checkpoint.make_inputs(small, torch.Generator(device="cuda").manual_seed(0))
    except (RuntimeError, TypeError, ValueError):
        return False
    ok = all(a.is_cuda for a in got if isinstance(a, torch.Tensor))
    del got
    return ok


def checked_rounds(rng: random.Random, rounds: int) -> list[int]:
    """The timed rounds whose outputs the parent checks: VERIFY of the second half, secret."""
    if rounds < 2 * VERIFY:
        raise ValueError(f"at least {2 * VERIFY} timed rounds are needed, not {rounds}")
    return sorted(rng.sample(range(rounds // 2, rounds), VERIFY))


def plan(checkpoint: Checkpoint, seed: int, device: str, rounds: int = ROUNDS) -> list[BenchShape]:
    checked_rounds(random.Random(0), rounds)  # refuses too few before any input is drawn
    rng = random.Random(seed ^ 0x5EED)
    drawn = []
    for case in checkpoint.definition.benchmark_shapes:
        # each set drawn, its reference computed and the first one counted in one request
        got = [
            checkpoint.draw(case, torch.Generator().manual_seed(rng.getrandbits(63)), device, not k)
            for k in range(SETS)
        ]
        drawn.append((case, [g.inputs for g in got], [g.reference for g in got], got[0]))
    largest = max(first.minimal_bytes or 0 for *_, first in drawn)
    shapes = []
    for i, (case, sets, refs, first) in enumerate(drawn):
        nbytes = first.minimal_bytes or 0
        small = not checkpoint.compute_bound and nbytes * SMALL_SHAPE_BYTES <= largest
        n = rounds * (SMALL_SHAPE_ROUNDS if small else 1)
        verify = checked_rounds(rng, n)
        shape = BenchShape(i, case, sets, refs, verify, nbytes, rounds=n)
        shape.flops = first.flops
        if device == "cuda" and draws_on_gpu(checkpoint, case):
            shape.seeds = [rng.getrandbits(63) for _ in range(n)]
            shape.sample_seed = rng.getrandbits(63)
            shape.families = balanced(checkpoint.definition.families(), n, rng)
            shape.verify = []  # the parent decides after each round (turns.py)
        shapes.append(shape)
    # The course's profile shape is timed last: the configs the child names as its
    # autotuners' picks (for the last shape timed) are then the ones its Nsight replay runs.
    profiled = checkpoint.definition.profile_cases()
    if profiled:
        shapes.sort(key=lambda s: s.case.name == profiled[0].name)
    return shapes


def balanced(
    kinds: list[dict[str, object]], rounds: int, rng: random.Random
) -> list[dict[str, object]]:
    """Each round's input family: every family on the same share of the rounds (within one),
    in an order drawn from the plan's secret seed. Drawn independently per round (as first
    built), the mix of families moved from grading to grading, and with it the median ratio:
    the lab file's speedup spread 13.7 % over five gradings on the H200 (2026-12-01, issue 33)
    where it had been 0.9 %. The submission still cannot tell a round's family before its call."""
    order = [kinds[r % len(kinds)] for r in range(rounds)]
    rng.shuffle(order)
    return order


def median_ci(values: list[float], z: float = 1.96) -> Ratio:
    """Median with a distribution-free 95 % interval from the order statistics."""
    xs = sorted(values)
    n = len(xs)
    lo = max(0, math.floor(n / 2 - z * math.sqrt(n) / 2))
    hi = min(n - 1, math.ceil(n / 2 + z * math.sqrt(n) / 2))
    return Ratio(median=statistics.median(xs), low=xs[lo], high=xs[hi])


def _gm(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def by_family(groups: list[list[float]]) -> float:
    """A shape's speedup from its rounds' ratios grouped by input family: the geometric mean
    of the families' medians, so every family counts alike. The median of the mixed rounds
    sat at the edge between two families whose ratios differ (a tail of each, which is
    noisy): the lab file's speedup moved 4.4 % over six gradings on the H200 (issue 29)."""
    return _gm([statistics.median(g) for g in groups])


def geomean_ci(per_shape: list[list[list[float]]], samples: int = 2000, seed: int = 0) -> Ratio:
    """Geometric mean of the shapes' speedups (`by_family` of each shape's groups of ratios);
    bootstrap over each family's rounds."""
    rng = random.Random(seed)
    point = _gm([by_family(groups) for groups in per_shape])
    boots = sorted(
        _gm([by_family([rng.choices(g, k=len(g)) for g in groups]) for groups in per_shape])
        for _ in range(samples)
    )
    return Ratio(median=point, low=boots[int(0.025 * samples)], high=boots[int(0.975 * samples)])


def _grouped(ratios: list[float | None], families: list[dict[str, object]]) -> list[list[float]]:
    """The rounds' ratios (None: a round left out) per input family; one group where the
    rounds drew no families (or their count does not match the rounds)."""
    if len(families) != len(ratios):
        return [[r for r in ratios if r is not None]]
    groups: dict[str, list[float]] = {}
    for r, family in zip(ratios, families, strict=True):
        key = repr(sorted(family.items()))
        groups.setdefault(key, [])
        if r is not None:
            groups[key].append(r)
    return [g for g in groups.values() if g]


def _ratio(groups: list[list[float]]) -> Ratio:
    """A shape's speedup with its interval: the plain median where there is one group."""
    if len(groups) == 1:
        return median_ci(groups[0])
    cis = [median_ci(g) for g in groups]
    return Ratio(
        median=by_family(groups), low=_gm([c.low for c in cis]), high=_gm([c.high for c in cis])
    )


def _speedups(
    times: dict[str, list[float]],
    apart: dict[str, list[float]],
    families: list[dict[str, object]],
    ratios_by_baseline: dict[str, list[list[list[float]]]],
) -> tuple[dict[str, Ratio], dict[str, float]]:
    """Per baseline the speedup (paired round by round; those timed `apart` against each of
    the submission's rounds), over the rounds' input `families` (`by_family`), and the median
    time per implementation."""
    sub = times["submission"]
    speedups = {}
    for name, base in times.items():
        if name == "submission":
            continue
        paired = [b / s if s > 0 else None for b, s in zip(base, sub, strict=True)]
        groups = _grouped(paired, families)
        speedups[name] = _ratio(groups)
        ratios_by_baseline.setdefault(name, []).append(groups)
    med = {name: statistics.median(t) for name, t in times.items()}
    for name, kept in apart.items():
        med[name] = statistics.median(kept)
        groups = _grouped([med[name] / s if s > 0 else None for s in sub], families)
        speedups[name] = _ratio(groups)
        ratios_by_baseline.setdefault(name, []).append(groups)
    return speedups, med


def _outside_stream(data: dict[str, dict[str, list[float]]]) -> float:
    """How long the submission's work ran past its end event, beyond what a synchronize
    shows with nothing pending."""
    times, synced = data["times"], data["synced"]
    gap = {
        n: statistics.median(a - b for a, b in zip(synced[n], times[n], strict=True)) for n in times
    }
    # the gap with nothing pending, measured in the submission's own process where the
    # baselines were timed in another (turns.py); else the baselines' gap
    null = (data.get("null") or {}).get("gap")
    reference_gap = (
        statistics.median(null)
        if null
        else min((g for n, g in gap.items() if n != "submission"), default=0.0)
    )
    return max(0.0, gap["submission"] - reference_gap)


def judge(
    shapes: list[BenchShape],
    raw: dict[int, dict[str, dict[str, list[float]]]],
    calibration: Calibration,
    device_name: str,
    baseline: str,
    unpaired: dict[int, dict[str, list[float]]] | None = None,
    compute_peaks: dict[str, float] | None = None,
) -> BenchmarkResult:
    """`raw`: per shape id, the child's times and synchronized times per implementation.
    `unpaired`: per shape id, baselines the parent timed apart (torch.compile): their speedup
    is their median time over each of the submission's rounds, not a paired ratio.
    `compute_peaks`: dtype -> calibrated TFLOP/s; a shape with declared FLOPs is then placed
    on the roofline (grader/gpu/roofline.py)."""
    model = gpus.lookup(device_name)
    datasheet = model.dram_gbps if model else 0.0
    result = BenchmarkResult(
        gpu=device_name,
        gpu_model=gpus.model_id(device_name),
        peak_gbps=calibration.peak_gbps,
        peak_source=f"measured here: copy {calibration.copy_gbps:.0f} GB/s, read "
        f"{calibration.read_gbps:.0f} GB/s" + (f"; datasheet {datasheet:.0f}" if model else ""),
        baseline=baseline,
        unpaired_baselines=sorted({n for d in (unpaired or {}).values() for n in d}),
        compute_peaks=dict(compute_peaks or {}),
        compute_source=roofline.source_text(compute_peaks or {}),
    )
    # A kernel cannot move its minimal bytes faster than the memory system: the floor uses the
    # highest ceiling we know, with 5 % of slack for measurement noise.
    ceiling = max(calibration.peak_gbps, datasheet) * 1.05
    ratios_by_baseline: dict[str, list[list[list[float]]]] = {}
    for shape in sorted(shapes, key=lambda s: s.id):  # as the checkpoint lists them
        data = raw.get(shape.id)
        if not data:
            result.flags.append(f"{shape.case.name}: no timings came back")
            continue
        times = data["times"]
        sub = times["submission"]
        apart = (unpaired or {}).get(shape.id, {})
        speedups, med = _speedups(times, apart, shape.families, ratios_by_baseline)
        gbps = shape.minimal_bytes / (med["submission"] * 1e-6) / 1e9
        floor_us = shape.minimal_bytes / (ceiling * 1e9) * 1e6
        outside = _outside_stream(data)
        entry = ShapeBenchmark(
            name=shape.case.name,
            shape=shape.case.shape,
            dtype=shape.case.dtype,
            rounds=len(sub),
            times_us={n: round(v, 2) for n, v in med.items()},
            speedup=speedups,
            minimal_bytes=shape.minimal_bytes,
            gbps=round(gbps, 1),
            pct_of_peak=round(100 * gbps / calibration.peak_gbps, 1),
            below_roofline=med["submission"] < floor_us,
            outside_stream_us=round(outside, 1),
            paired=[round(r, 4) for g in ratios_by_baseline[baseline][-1] for r in g]
            if baseline in speedups
            else [],
        )
        peak = (compute_peaks or {}).get(shape.case.dtype)
        if shape.flops and peak:
            entry.roofline = roofline.place(
                shape.flops, shape.minimal_bytes, med, peak, calibration.peak_gbps
            )
        if entry.below_roofline:
            result.flags.append(
                f"{shape.case.name}: {med['submission']:.1f} µs is below the roofline floor "
                f"({floor_us:.1f} µs to move {shape.minimal_bytes / 1e6:.1f} MB at "
                f"{ceiling:.0f} GB/s): impossible, so not rewarded"
            )
        if outside > OUTSIDE_STREAM_US:
            result.flags.append(
                f"{shape.case.name}: your work finished {outside:.0f} µs after the timed "
                "region ended (a side stream or deferred work?): not rewarded"
            )
        result.shapes.append(entry)
    if result.shapes and len(result.shapes) == len(shapes):
        result.geomean = {name: geomean_ci(r) for name, r in ratios_by_baseline.items()}
    return result

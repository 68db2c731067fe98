"""GPU timing and profiling replays, run inside the sandbox next to the submission.

Times are measured here (the kernels run in this process) but judged by the parent: it gets
raw per-call times and the outputs of secretly chosen timed calls, recomputes the statistics,
checks the outputs against its own references and compares the times with the roofline floor
and with what Nsight Compute measured from outside the submission's control.

Method (per benchmark shape):
- the GPU is kept busy (a spin kernel) while the host launches, so the events bracket the GPU
  work and not the host's launch latency;
- every implementation (the submission and each baseline) runs `warmup` times first, which
  also lets `@triton.autotune` pick its config outside the timed region;
- each round, every call gets its tensors at a fresh address (`timing.place`: no answer can be
  cached by pointer, shape or id(), and no call told from another by them), the L2 is flushed
  by reading and writing a buffer of twice its size, then each implementation is timed with
  CUDA events, in an order that alternates between rounds (baseline first, then submission
  first: drift cancels);
- a third event is recorded after a device-wide synchronize: work the submission put on
  another stream or deferred shows up as a gap between the two.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import IO, Any

import torch
from harness import wire
from harness.timing import (
    flush_l2,
    fresh_inputs,
    place,
    sample_positions,
    timed_call,
    wait_cycles,
)

Fn = Callable[..., Any]


def load_problem(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("kgrade_problem", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_baselines(path: str, names: list[str]) -> dict[str, Fn]:
    table = getattr(load_problem(path), "BASELINES", {})
    return {n: table[n] for n in names if callable(table.get(n))}


def _wait(cycles: int) -> None:
    """The trusted stand-in for a call of the submission: a spin kernel as long as it."""
    torch.cuda._sleep(cycles)


def benchmark_fresh(
    out: IO[bytes],
    control: IO[bytes],
    entry: Fn,
    problem: Any,
    shape: dict[str, Any],
    flush_bytes: int,
) -> None:
    """The submission alone, on fresh inputs every round, taking turns with the parent, which
    times the baselines on the same inputs in its own process (grader/gpu/turns.py). Before each
    round the child waits for the parent's byte: `g` (go), or `f` (first send the whole output
    of the round before: the parent decides which after seeing the round). After each round it
    sends the time and the output at positions drawn from a seed the submission cannot read.

    Every call, warm-up included, gets its own tensors at a fresh address (`timing.place`), of
    fresh values drawn from an input family; the warm-up's length is drawn here, so the call
    that is the first timed one has no fixed index."""
    fresh = shape["fresh"]
    device = fresh.get("device", "cuda")
    case = SimpleNamespace(**fresh["case"])
    seeds: list[int] = fresh["seeds"]
    families: list[dict[str, Any]] = fresh.get("families") or [{}] * len(seeds)
    for _ in range(shape["warmup"] + _DRAW.randrange(shape["warmup"] + 1)):
        seed, family = _DRAW.getrandbits(63), _DRAW.choice(families)  # like a round's draw
        entry(*place(fresh_inputs(problem.make_inputs, case, seed, family, device)))
    _synchronize(device)
    flush = torch.zeros(flush_bytes // 4, dtype=torch.float32, device=device)
    wire.write_frame(out, {"type": "bench_ready", "shape": shape["id"]})
    last: Any = None
    for r in range(len(seeds) + 1):
        word = control.read(1)
        if word == b"f" and isinstance(last, torch.Tensor):
            header = {"type": "bench_full", "shape": shape["id"], "round": r - 1}
            wire.write_frame(
                out, {**header, "tensor": wire.tensor_meta(last)}, wire.tensor_bytes(last)
            )
        elif word not in {b"g", b"f"}:
            return  # the parent is gone, or stops the benchmark
        if r == len(seeds):
            return
        last = None  # the round before's output is not kept past its challenge
        args = place(fresh_inputs(problem.make_inputs, case, seeds[r], families[r], device))
        elapsed, until_synced, result = timed_call(entry, args, flush)
        del args
        # this process's own gap from the end event to a synchronize after a trusted wait as
        # long as the submission's call (the host's wake-up from a long synchronize grows with
        # the wait: 53-79 µs after a 1.8 ms GEMM on an H200, under 8 µs after 0.3 ms): what the
        # submission's gap is compared with (the baselines' are another process's)
        null_gap = 0.0
        if device == "cuda":
            null_time, null_synced, _ = timed_call(_wait, [wait_cycles(elapsed)], flush)
            null_gap = null_synced - null_time
        header = {
            "type": "bench_round",
            "shape": shape["id"],
            "round": r,
            "time": elapsed,
            "synced": until_synced,
            "null_gap": null_gap,
        }
        last = result if type(result) is torch.Tensor else None
        if last is None:
            wire.write_frame(out, {**header, "bad": type(result).__name__})
            continue
        at = sample_positions(last.numel(), fresh["sample_seed"] + r, fresh["samples"], device)
        picked = last.reshape(-1)[at] if last.numel() else last.reshape(-1)
        wire.write_frame(
            out, {**header, "tensor": wire.tensor_meta(picked)}, wire.tensor_bytes(picked)
        )


_DRAW = random.SystemRandom()


def _synchronize(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _args(specs: list[dict[str, Any]], tensors: list[torch.Tensor]) -> list[Any]:
    return [tensors[a["tensor"]].to("cuda") if "tensor" in a else a["value"] for a in specs]


def benchmark(
    out: IO[bytes],
    entry: Fn,
    baselines: dict[str, Fn],
    shape: dict[str, Any],
    tensors: list[torch.Tensor],
    flush_bytes: int,
) -> None:
    sets = [_args(s, tensors) for s in shape["sets"]]
    flush = torch.zeros(flush_bytes // 4, dtype=torch.float32, device="cuda")
    impls: dict[str, Fn] = {**baselines, "submission": entry}
    for fn in impls.values():
        for _ in range(shape["warmup"]):
            fn(*place(sets[0]))
    torch.cuda.synchronize()

    names = list(impls)
    times: dict[str, list[float]] = {n: [] for n in names}
    synced: dict[str, list[float]] = {n: [] for n in names}
    verify = set(shape["verify"])
    for r in range(shape["rounds"]):
        k = r % len(sets)
        order = names if r % 2 == 0 else list(reversed(names))
        for name in order:
            args = place(sets[k])
            elapsed, until_synced, result = timed_call(impls[name], args, flush)
            times[name].append(elapsed)
            synced[name].append(until_synced)
            if name == "submission" and r in verify:
                header: dict[str, Any] = {"type": "bench_output", "shape": shape["id"], "round": r}
                if type(result) is not torch.Tensor:
                    header.update(type="bench_bad_output", message=type(result).__name__)
                    wire.write_frame(out, header)
                else:
                    header["set"] = k
                    header["tensor"] = wire.tensor_meta(result)
                    wire.write_frame(out, header, wire.tensor_bytes(result))
    wire.write_frame(out, {"type": "bench", "shape": shape["id"], "times": times, "synced": synced})


def profile_replay(
    entry: Fn | None,
    baselines: dict[str, Fn],
    shape: dict[str, Any],
    tensors: list[torch.Tensor],
    impls: list[str],
    out: IO[bytes] | None = None,
    problem: Any = None,
) -> None:
    """One call of each implementation between cudaProfilerStart/Stop, each in an NVTX range
    named kgrade:<impl>, after a warm-up outside the profiled region (where an autotuner not
    given its timed config tunes).

    The submission's replay is a grading run as the submission sees it (`_as_graded`): first
    calls of the checkpoint's cases (`shape["mimic"]`, in a drawn order), then a warm-up of
    drawn length on fresh draws, then the profiled call — every call on fresh values at fresh
    addresses, the L2 flushed before the profiled one as before a timed one. The profiled call's
    output is sent (`bench_output`, round 0: the replay's inputs are the shape's first set, whose
    reference the parent holds) and checked like a timed round's."""
    args = _args(shape["sets"][0], tensors)
    table: dict[str, Fn] = {**baselines}
    if entry is not None:
        table["submission"] = entry
    chosen = [i for i in impls if i in table]
    for name in chosen:
        if name == "submission" and problem is not None:
            _as_graded(table[name], problem, shape)
            continue
        for _ in range(2):
            table[name](*place(args))
    torch.cuda.synchronize()
    flush = torch.zeros(int(shape.get("flush_bytes") or 0) // 4, device="cuda")
    cudart = torch.cuda.cudart()
    for name in chosen:
        placed = place(args)
        flush_l2(flush)
        torch.cuda.synchronize()
        cudart.cudaProfilerStart()
        torch.cuda.nvtx.range_push(f"kgrade:{name}")
        result = table[name](*placed)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        cudart.cudaProfilerStop()
        if name == "submission" and out is not None:
            _send_output(out, shape["id"], result)


def _as_graded(entry: Fn, problem: Any, shape: dict[str, Any], device: str = "cuda") -> None:
    """The calls a grading makes before its timed ones, as the submission can see them: each
    case of the checkpoint (its draws, in an order drawn here), then the warm-up's calls on
    fresh draws of the shape. Their outputs are not needed: the profiled call's is checked."""
    cases = [SimpleNamespace(**c) for c in shape.get("mimic") or []]
    _DRAW.shuffle(cases)
    for case in cases:
        seed = _DRAW.getrandbits(63)
        entry(*place(fresh_inputs(problem.make_inputs, case, seed, None, device)))
    fresh = shape.get("fresh") or {}
    families: list[dict[str, Any]] = fresh.get("families") or [{}]
    warmup = int(shape.get("warmup") or 2)
    if fresh.get("case"):
        drawn = SimpleNamespace(**fresh["case"])
        for _ in range(warmup + _DRAW.randrange(warmup + 1)):
            seed, family = _DRAW.getrandbits(63), _DRAW.choice(families)
            entry(*place(fresh_inputs(problem.make_inputs, drawn, seed, family, device)))
    if device == "cuda":
        torch.cuda.synchronize()


def _send_output(out: IO[bytes], shape_id: int, result: Any) -> None:
    header: dict[str, Any] = {"type": "bench_output", "shape": shape_id, "round": 0, "set": 0}
    if type(result) is not torch.Tensor:
        header.update(type="bench_bad_output", message=type(result).__name__)
        wire.write_frame(out, header)
        return
    header["tensor"] = wire.tensor_meta(result)
    wire.write_frame(out, header, wire.tensor_bytes(result))

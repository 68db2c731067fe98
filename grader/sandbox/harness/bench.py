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
- each round, the input buffers are refilled with the round's input set (sets alternate, so
  an answer cached by pointer, shape or id() is stale), the L2 is flushed by writing a buffer
  of at least twice its size, then each implementation is timed with CUDA events, in an order
  that alternates between rounds (baseline first, then submission first: drift cancels);
- a third event is recorded after a device-wide synchronize: work the submission put on
  another stream or deferred shows up as a gap between the two.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from types import SimpleNamespace
from typing import IO, Any

import torch
from harness import wire
from harness.timing import fresh_inputs, sample_positions, timed_call, wait_cycles

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
    sends the time and the output at positions drawn from a seed the submission cannot read."""
    fresh = shape["fresh"]
    case = SimpleNamespace(**fresh["case"])
    seeds: list[int] = fresh["seeds"]
    warm = fresh_inputs(problem.make_inputs, case, seeds[0] ^ 0x3A3A)
    for _ in range(shape["warmup"]):
        entry(*warm)
    torch.cuda.synchronize()
    buffers = [a.clone() if isinstance(a, torch.Tensor) else a for a in warm]
    del warm
    flush = torch.empty(flush_bytes // 4, dtype=torch.float32, device="cuda")
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
        args = _fill(buffers, fresh_inputs(problem.make_inputs, case, seeds[r]))
        elapsed, until_synced, result = timed_call(entry, args, flush)
        # this process's own gap from the end event to a synchronize after a trusted wait as
        # long as the submission's call (the host's wake-up from a long synchronize grows with
        # the wait: 53-79 µs after a 1.8 ms GEMM on an H200, under 8 µs after 0.3 ms): what the
        # submission's gap is compared with (the baselines' are another process's)
        null_time, null_synced, _ = timed_call(_wait, [wait_cycles(elapsed)], flush)
        header = {
            "type": "bench_round",
            "shape": shape["id"],
            "round": r,
            "time": elapsed,
            "synced": until_synced,
            "null_gap": null_synced - null_time,
        }
        last = result if type(result) is torch.Tensor else None
        if last is None:
            wire.write_frame(out, {**header, "bad": type(result).__name__})
            continue
        at = sample_positions(last.numel(), fresh["sample_seed"] + r, fresh["samples"])
        picked = last.reshape(-1)[at] if last.numel() else last.reshape(-1)
        wire.write_frame(
            out, {**header, "tensor": wire.tensor_meta(picked)}, wire.tensor_bytes(picked)
        )


def _args(specs: list[dict[str, Any]], tensors: list[torch.Tensor]) -> list[Any]:
    return [tensors[a["tensor"]].to("cuda") if "tensor" in a else a["value"] for a in specs]


def _fill(buffers: list[Any], source: list[Any]) -> list[Any]:
    for b, s in zip(buffers, source, strict=True):
        if isinstance(b, torch.Tensor):
            b.copy_(s)
    return [
        s if not isinstance(s, torch.Tensor) else b for b, s in zip(buffers, source, strict=True)
    ]


def benchmark(
    out: IO[bytes],
    entry: Fn,
    baselines: dict[str, Fn],
    shape: dict[str, Any],
    tensors: list[torch.Tensor],
    flush_bytes: int,
) -> None:
    sets = [_args(s, tensors) for s in shape["sets"]]
    buffers = [a.clone() if isinstance(a, torch.Tensor) else a for a in sets[0]]
    flush = torch.empty(flush_bytes // 4, dtype=torch.float32, device="cuda")
    impls: dict[str, Fn] = {**baselines, "submission": entry}
    for fn in impls.values():
        for _ in range(shape["warmup"]):
            fn(*sets[0])
    torch.cuda.synchronize()

    names = list(impls)
    times: dict[str, list[float]] = {n: [] for n in names}
    synced: dict[str, list[float]] = {n: [] for n in names}
    verify = set(shape["verify"])
    for r in range(shape["rounds"]):
        k = r % len(sets)
        order = names if r % 2 == 0 else list(reversed(names))
        for name in order:
            args = _fill(buffers, sets[k])
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
) -> None:
    """One call of each implementation between cudaProfilerStart/Stop, each in an NVTX range
    named kgrade:<impl>, after a warm-up outside the profiled region (where an autotuner not
    given its timed config tunes)."""
    args = _args(shape["sets"][0], tensors)
    table: dict[str, Fn] = {**baselines}
    if entry is not None:
        table["submission"] = entry
    chosen = [i for i in impls if i in table]
    for name in chosen:
        for _ in range(2):
            table[name](*args)
    torch.cuda.synchronize()
    cudart = torch.cuda.cudart()
    cudart.cudaProfilerStart()
    for name in chosen:
        torch.cuda.nvtx.range_push(f"kgrade:{name}")
        table[name](*args)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    cudart.cudaProfilerStop()

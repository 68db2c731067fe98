"""The `torch.compile` baseline, timed by the trusted parent rather than in the sandbox.

Compiling inside the sandbox would cost every grading 10-40 s, and an inductor cache shared
between gradings would be a channel between submissions. The compiled op does not depend on the
submission, so it is timed here, once per GPU, driver, torch and Triton version and benchmark
shape, with the same timed call as the child (L2 flushed, spin kernel before the start event),
and cached beside the bandwidth calibration. Its speedup is therefore not paired round by round
with the submission's: the result says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from grader import cachefile
from grader.checkpoints import Checkpoint
from grader.gpu.calibrate import driver_version
from grader.plan.shapes import BenchShape
from grader.sandbox.harness.timing import timed_call

MARK = "compile:"  # BASELINES = {"compile": "compile:torch"} compiles the "torch" baseline
ROUNDS = 50
WARMUP = 5


def target(checkpoint: Checkpoint) -> tuple[str, Callable[..., Any]] | None:
    """("compile", the function to compile), when the checkpoint asks for this baseline."""
    table = checkpoint.baselines()
    for name, value in table.items():
        if isinstance(value, str) and value.startswith(MARK):
            fn = table.get(value.removeprefix(MARK))
            if callable(fn):
                return name, fn
    return None


def _key(checkpoint: Checkpoint, shape: BenchShape) -> str:
    import triton

    c = shape.case
    return (
        f"{torch.cuda.get_device_name()}|driver {driver_version()}|torch {torch.__version__}|"
        f"triton {triton.__version__}|{checkpoint.id}|{c.name}|{c.shape}|{c.dtype}|{ROUNDS}"
    )


def times(
    checkpoint: Checkpoint, shapes: list[BenchShape], flush_bytes: int, cache_dir: Path | None
) -> dict[int, dict[str, list[float]]]:
    """Per benchmark shape id, {baseline name: ROUNDS timed calls (µs)} of the compiled op."""
    found = target(checkpoint)
    if found is None or not shapes:
        return {}
    name, fn = found
    cache = cache_dir / "compile_baselines.json" if cache_dir else None
    known = cachefile.load(cache)
    keys = {shape.id: _key(checkpoint, shape) for shape in shapes}
    missing = [s for s in shapes if keys[s.id] not in known]
    if missing:
        compiled = torch.compile(fn, dynamic=False)
        flush = torch.empty(flush_bytes // 4, dtype=torch.float32, device="cuda")
        for shape in missing:
            sets = [
                [a.to("cuda") if isinstance(a, torch.Tensor) else a for a in s] for s in shape.sets
            ]
            for _ in range(WARMUP):
                compiled(*sets[0])
            known[keys[shape.id]] = [
                round(timed_call(compiled, sets[r % len(sets)], flush)[0], 3) for r in range(ROUNDS)
            ]
            del sets
        del flush
        torch.cuda.empty_cache()
        cachefile.store(cache, known)
    return {shape.id: {name: known[keys[shape.id]]} for shape in shapes}

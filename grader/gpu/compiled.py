"""The `torch.compile` baseline, timed apart from the submission's sandbox.

Compiling inside the submission's sandbox would cost every grading 10-40 s, and an inductor
cache shared between gradings would be a channel between submissions. The compiled op does not
depend on the submission, so it is compiled and timed by the checkpoint's own sandboxed process
(problem.py's, grader/sandbox/problem.py: its inductor cache in its private /tmp), once per
GPU, driver, torch and Triton version and benchmark shape, with the same timed call as the
child (L2 flushed, spin kernel before the start event), and cached beside the bandwidth
calibration. Its speedup is therefore not paired round by round with the submission's: the
result says so.
"""

from __future__ import annotations

from pathlib import Path

import torch

from grader import cachefile
from grader.checkpoints import Checkpoint
from grader.gpu.calibrate import driver_version
from grader.plan.shapes import BenchShape
from grader.sandbox import problem

MARK = "compile:"  # BASELINES = {"compile": "compile:torch"} compiles the "torch" baseline
ROUNDS = 50
WARMUP = 5


def target(checkpoint: Checkpoint) -> tuple[str, str] | None:
    """("compile", the baseline to compile), when the checkpoint asks for this baseline."""
    table = checkpoint.baselines()
    for name, value in table.items():
        if value.startswith(MARK) and table.get(value.removeprefix(MARK)) == "callable":
            return name, value.removeprefix(MARK)
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
    name, compile_of = found
    cache = cache_dir / "compile_baselines.json" if cache_dir else None
    known = cachefile.load(cache)
    keys = {shape.id: _key(checkpoint, shape) for shape in shapes}
    missing = [s for s in shapes if keys[s.id] not in known]
    if missing:
        code = problem.on_gpu(checkpoint)  # problem.py's own sandboxed process
        for shape in missing:
            timed = code.compiled_times(compile_of, shape.sets, flush_bytes, ROUNDS, WARMUP)
            known[keys[shape.id]] = [round(t, 3) for t in timed]
        cachefile.store(cache, known)
    return {shape.id: {name: known[keys[shape.id]]} for shape in shapes}

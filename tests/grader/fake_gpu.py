"""The GPU stage's timed rounds on the CPU: the child's side (sandbox/harness/bench.py's
`benchmark_fresh`) and the parent's (gpu/turns.py's `Turns`) talking over real pipes, exactly
as in a GPU grading, with the host clock for the events (timing.timed_call on a CPU flush
buffer). The entry is a plain function standing for what a submission's allowed host code can
do: see the tensors it is handed (identity, address, strides, values), count its calls, keep
state between them."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.checkpoints import Checkpoint
from grader.gpu.turns import Turns
from grader.judge.compare import Comparison
from grader.models import CaseSpec
from grader.plan.shapes import SAMPLES, BenchShape
from grader.sandbox.harness import wire
from grader.sandbox.harness.timing import fresh_inputs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "grader" / "sandbox"))
from harness import bench


@dataclass
class Rounds:
    shape: BenchShape
    turns: Turns
    checks: list[tuple[int, Comparison]] = field(default_factory=list)  # (round, result)

    def failed_rounds(self) -> set[int]:
        return {r for r, c in self.checks if not c.passed}

    def hard_rounds(self) -> set[int]:
        """The rounds that drew an input family other than the plain draw."""
        return {r for r, f in enumerate(self.shape.families) if f}


def take_rounds(
    checkpoint: Checkpoint,
    entry: Callable[..., Any],
    case: CaseSpec,
    *,
    rounds: int = 16,
    seed: int = 7,
    families: list[dict[str, Any]] | None = None,
) -> Rounds:
    """Plan one fresh-input shape of `case` as benchmark.plan does on a GPU, and take its
    rounds in turns between `entry` (the child's side) and the parent's Turns."""
    import random

    rng = random.Random(seed)
    shape = BenchShape(0, case, [], [], [], 0, rounds=rounds, warmup=2)
    shape.seeds = [rng.getrandbits(63) for _ in range(rounds)]
    shape.sample_seed = rng.getrandbits(63)
    kinds = checkpoint.definition.families()
    shape.families = families if families is not None else [rng.choice(kinds) for _ in shape.seeds]
    first = fresh_inputs(checkpoint.make_inputs, case, shape.seeds[0], None, "cpu")
    shape.references = [checkpoint.reference(first)]
    turns = Turns(checkpoint, [shape], checkpoint.definition.tolerances, 1 << 16, seed, "cpu")
    frames_r, frames_w = os.pipe()
    control_r, control_w = os.pipe()
    with (
        os.fdopen(frames_r, "rb") as frames_in,
        os.fdopen(frames_w, "wb") as frames_out,
        os.fdopen(control_r, "rb", buffering=0) as control_in,
        os.fdopen(control_w, "wb") as control_out,
    ):
        turns.control = lambda: control_out
        spec = {
            "id": 0,
            "warmup": shape.warmup,
            "fresh": {
                "device": "cpu",
                "seeds": shape.seeds,
                "sample_seed": shape.sample_seed,
                "samples": SAMPLES,
                "families": shape.families,
                "case": case.model_dump(),
            },
        }
        problem = bench.load_problem(str(checkpoint.folder / "problem.py"))
        errors: list[BaseException] = []

        def child() -> None:
            try:
                bench.benchmark_fresh(frames_out, control_in, entry, problem, spec, 1 << 16)
            except BaseException as exc:
                errors.append(exc)
            finally:
                frames_out.close()

        worker = threading.Thread(target=child)
        worker.start()
        try:
            for header, payload in wire.read_frames(frames_in, 1 << 34):
                turns.frame(header["type"], header, payload)
        finally:
            control_out.close()
            worker.join()
        if errors:
            raise errors[0]
    return Rounds(shape, turns, [(r, c) for _, r, c in turns.checks])

"""The benchmark's plan: the shapes a GPU grading times, their inputs, references and secret
checked rounds (`BenchShape`), and the protocol's counts. Planned by `grader.gpu.benchmark.plan`,
written into the job by `grader.sandbox.job`, taken in turns by `grader.gpu.turns`."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from grader.checkpoints import Arg
from grader.models import CaseSpec

ROUNDS = 50
WARMUP = 5
SETS = 2
VERIFY = 3  # timed calls whose outputs the parent checks, chosen secretly per grading
# With fresh inputs per round (a GPU and a checkpoint whose make_inputs draws there), every
# timed call's output is checked at SAMPLES positions drawn after it ran, and the parent asks
# for FULL_CHECKS whole outputs, deciding after each round (grader/gpu/turns.py).
SAMPLES = 4096
FULL_CHECKS = 3


@dataclass
class BenchShape:
    id: int
    case: CaseSpec
    sets: list[list[Arg]]
    references: list[torch.Tensor]
    verify: list[int]
    minimal_bytes: int
    rounds: int = ROUNDS
    warmup: int = WARMUP
    arg_specs: list[list[dict[str, int | float]]] = field(default_factory=list)
    # fresh inputs per timed round: round r's are make_inputs(case, a CUDA generator seeded
    # with seeds[r]), drawn by the child and again by the parent; None: the two `sets` alternate
    seeds: list[int] | None = None
    sample_seed: int = 0  # the positions each round's output is checked at
    # per fresh round, the params of the input family it draws (CheckpointDef.families), drawn
    # at random per round by the plan; empty: the plain draw every round
    families: list[dict[str, object]] = field(default_factory=list)
    flops: int | None = None  # the declared work of one call (problem.py `flops`), if any

"""The correctness runs a grading plans: per case and draw, the inputs from a secret seed and
the reference computed in the trusted parent (`grader.pipeline.plan_runs`)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from grader.checkpoints import Arg
from grader.models import CaseSpec


@dataclass
class PlannedRun:
    id: int
    case: CaseSpec
    draw: int
    inputs: list[Arg]
    reference: torch.Tensor
    # For large outputs: secret positions at which configs after the first are checked
    # (the first config's output is always checked whole).
    sample: torch.Tensor | None = None

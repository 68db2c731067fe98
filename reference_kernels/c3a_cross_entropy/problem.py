"""c3a-cross-entropy: inputs, reference and baselines. Runs in the trusted parent."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:  # only torch at run time: the GPU stage imports this file for BASELINES
    from grader.models import CaseSpec


def make_inputs(case: CaseSpec, gen: torch.Generator) -> list[torch.Tensor]:
    if gen.device.type == "cpu":
        from grader import randn  # the parent only: the sandbox cannot import grader
    else:  # a timed round's fresh inputs, drawn on the GPU (by the sandboxed child too)

        def randn(shape: list[int], g: torch.Generator) -> torch.Tensor:
            return torch.randn(tuple(shape), generator=g, device=g.device)

    scale = float(case.params.get("scale", 1.0))
    n, v = case.shape
    logits = randn(case.shape, gen).mul_(scale)
    targets = torch.randint(0, v, (n,), generator=gen, dtype=torch.int64, device=gen.device)
    return [logits.to(getattr(torch, case.dtype)), targets]


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits.to(torch.float64), targets).to(torch.float32)


def naive(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The course's starting point: a kernel per step, each a round-trip to DRAM."""
    x = logits.float()
    m = x.max(dim=-1, keepdim=True).values
    lse = m.squeeze(-1) + torch.log(torch.exp(x - m).sum(dim=-1))
    picked = x.gather(1, targets[:, None]).squeeze(1)
    return (lse - picked).mean()


def _torch(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits.float(), targets)


BASELINES = {"torch": _torch, "naive": naive, "compile": "compile:torch"}


def minimal_bytes(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    logits, targets = inputs
    return (logits.numel() * logits.element_size() + targets.numel() * targets.element_size()
            + output.numel() * output.element_size())

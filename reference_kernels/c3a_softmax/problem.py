"""c3a-softmax: inputs, reference and baselines. Runs in the trusted parent."""

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
    x = randn(case.shape, gen).mul_(scale)
    frac = float(case.params.get("neg_inf_fraction", 0.0))
    if frac:
        drop = torch.rand(case.shape, generator=gen, device=gen.device) < frac
        drop[:, 0] = False  # keep every row with at least one finite entry
        x = x.masked_fill(drop, float("-inf"))
    return [x.to(getattr(torch, case.dtype))]


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.to(torch.float64), dim=-1).to(x.dtype)


def naive(x: torch.Tensor) -> torch.Tensor:
    """The course's starting point: five kernels, each a round-trip to DRAM."""
    m = x.max(dim=-1, keepdim=True).values
    e = torch.exp(x - m)
    s = e.sum(dim=-1, keepdim=True)
    return e / s


def _torch(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x, dim=-1)


BASELINES = {"torch": _torch, "naive": naive, "compile": "compile:torch"}


def minimal_bytes(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    (x,) = inputs
    return x.numel() * x.element_size() + output.numel() * output.element_size()

"""c3a-softmax: inputs, reference and baselines. Runs in the trusted parent."""

from __future__ import annotations

import math
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


def _no_max_subtraction(x: torch.Tensor) -> torch.Tensor:
    """Right while exp(x) does not overflow (N(0, 1) inputs); NaN once |x| nears 90 (fp32)."""
    e = torch.exp(x.to(torch.float32))
    return (e / e.sum(dim=-1, keepdim=True)).to(x.dtype)


def _estimated_row_sum(x: torch.Tensor) -> torch.Tensor:
    """The row sum replaced by its expectation for N(0, 1) entries, W·e^(1/2)·e^(-max): a
    reduction saved, off by about sqrt((e - 1) / W) per row (2 % at W = 4096)."""
    xf = x.to(torch.float32)
    m = xf.max(dim=-1, keepdim=True).values
    return (torch.exp(xf - m) / (x.shape[-1] * math.exp(0.5) * torch.exp(-m))).to(x.dtype)


# Named shortcuts, each right only on some inputs: checkpoint validation proves that every
# dtype's tolerance rejects each on at least one case (grader/validation.py).
SHORTCUTS = {"no max subtraction": _no_max_subtraction, "estimated row sum": _estimated_row_sum}


def minimal_bytes(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    (x,) = inputs
    return x.numel() * x.element_size() + output.numel() * output.element_size()

"""c3a-vector-add: inputs, reference and baselines. Runs in the trusted parent."""

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
    dtype = getattr(torch, case.dtype)
    x = randn(case.shape, gen).mul_(scale)
    y = randn(case.shape, gen).mul_(scale)
    return [x.to(dtype), y.to(dtype)]


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x.to(torch.float64) + y.to(torch.float64)).to(x.dtype)


def naive(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """The course's starting point is already one kernel: PyTorch's own add."""
    return torch.add(x, y)


def _torch(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + y


BASELINES = {"torch": _torch, "naive": naive, "compile": "compile:torch"}


def minimal_bytes(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    x, y = inputs
    return (x.numel() * x.element_size() + y.numel() * y.element_size()
            + output.numel() * output.element_size())

"""c3a-rmsnorm: inputs, reference and baselines. Runs in the trusted parent."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:  # only torch at run time: the GPU stage imports this file for BASELINES
    from grader.models import CaseSpec


def make_inputs(case: CaseSpec, gen: torch.Generator) -> list[torch.Tensor | float]:
    if gen.device.type == "cpu":
        from grader import randn  # the parent only: the sandbox cannot import grader
    else:  # a timed round's fresh inputs, drawn on the GPU (by the sandboxed child too)

        def randn(shape: list[int], g: torch.Generator) -> torch.Tensor:
            return torch.randn(tuple(shape), generator=g, device=g.device)

    scale = float(case.params.get("scale", 1.0))
    eps = float(case.params.get("eps", 1e-6))
    dtype = getattr(torch, case.dtype)
    x = randn(case.shape, gen).mul_(scale)
    # A learned-looking gain around 1, different per column, so a dropped weight shows.
    weight = 1.0 + 0.5 * torch.randn(
        case.shape[-1], generator=gen, dtype=torch.float32, device=gen.device
    )
    return [x.to(dtype), weight.to(dtype), eps]


def reference(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    y = torch.nn.functional.rms_norm(
        x.to(torch.float64), (x.shape[-1],), weight.to(torch.float64), eps
    )
    return y.to(x.dtype)


def naive(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """The course's starting point: a kernel per line, each a round-trip to DRAM."""
    xf = x.float()
    ms = xf.pow(2).mean(dim=-1, keepdim=True)
    y = xf * torch.rsqrt(ms + eps)
    return (y * weight.float()).to(x.dtype)


def _torch(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return torch.nn.functional.rms_norm(x, (x.shape[-1],), weight, eps)


BASELINES = {"torch": _torch, "naive": naive, "compile": "compile:torch"}


def minimal_bytes(inputs: list[torch.Tensor | float], output: torch.Tensor) -> int:
    x, weight, _eps = inputs
    assert isinstance(x, torch.Tensor) and isinstance(weight, torch.Tensor)
    return (x.numel() * x.element_size() + weight.numel() * weight.element_size()
            + output.numel() * output.element_size())

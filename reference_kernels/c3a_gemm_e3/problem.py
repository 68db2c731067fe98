"""c3a-gemm-e3: inputs, reference, the cuBLAS baseline and the work a GEMM does. Runs in the
trusted parent.

A case's shape is [M, N, K]: a is M×K, b is K×N, the output M×N in the inputs' dtype. The
work: 2·M·N·K floating-point operations (a multiply and an add per term) over the bytes of a,
b and c, each read or written once — the arithmetic intensity that puts a large GEMM far to
the right of the ridge point, compute-bound.
"""

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

    m, n, k = case.shape
    dtype = getattr(torch, case.dtype)
    # `offset`: a common mean. With it every output is about K·offset², large next to one
    # term, so an accumulator kept in fp16 loses the low bits of every tile it adds.
    offset = float(case.params.get("offset", 0.0))
    a = randn([m, k], gen).add_(offset)
    b = randn([k, n], gen).add_(offset)
    return [a.to(dtype), b.to(dtype)]


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a.to(torch.float64) @ b.to(torch.float64)).to(a.dtype)


def _cublas(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b


BASELINES = {"torch": _cublas}


def minimal_bytes(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    return sum(t.numel() * t.element_size() for t in [*inputs, output])


def flops(inputs: list[torch.Tensor], output: torch.Tensor) -> int:
    a, _b = inputs
    m, k = a.shape
    return 2 * m * output.shape[1] * k

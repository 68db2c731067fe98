"""c3a-attention: inputs, reference, baselines and the work of an attention forward. Runs in
the trusted parent.

A case's shape is [batch, heads, seq, head_dim]; q, k and v are each of that shape, and the
entry's fourth argument says causal (1) or not (0); the scale is 1/sqrt(head_dim). The work:
two matmuls of 2·seq·seq·head_dim flops per (batch, head), half of that when causal (the
convention of FlashAttention's papers), over the bytes of q, k, v and o each moved once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:  # only torch at run time: the GPU stage imports this file for BASELINES
    from grader.models import CaseSpec


def make_inputs(case: CaseSpec, gen: torch.Generator) -> list[torch.Tensor | int]:
    if gen.device.type == "cpu":
        from grader import randn  # the parent only: the sandbox cannot import grader
    else:  # a timed round's fresh inputs, drawn on the GPU (by the sandboxed child too)

        def randn(shape: list[int], g: torch.Generator) -> torch.Tensor:
            return torch.randn(tuple(shape), generator=g, device=g.device)

    dtype = getattr(torch, case.dtype)
    # `q_scale` sharpens (> 1) or flattens (< 1) the scores; `v_offset` gives every value a
    # common mean, so that the running output grows with the number of keys.
    q = randn(case.shape, gen).mul_(float(case.params.get("q_scale", 1.0)))
    k = randn(case.shape, gen)
    v = randn(case.shape, gen).add_(float(case.params.get("v_offset", 0.0)))
    ramp = float(case.params.get("v_ramp", 0.0))
    if ramp:  # values rising by `v_ramp` from the first key to the last: a running mean drifts
        n = case.shape[-2]
        v.add_(torch.linspace(0.0, ramp, n, device=v.device).view(n, 1))
    # `score_offset` adds about that much to every score: channel 0 of q and of k holds the
    # same constant c, with c² / sqrt(head_dim) = score_offset, so the softmax (shift-invariant
    # per row) stays as well defined as without it while exp of a raw score overflows.
    offset = float(case.params.get("score_offset", 0.0))
    if offset:
        c = math.sqrt(offset * math.sqrt(case.shape[-1]))
        q[..., 0] = c
        k[..., 0] = c
    causal = int(case.params.get("causal", 0))
    return [q.to(dtype), k.to(dtype), v.to(dtype), causal]


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: int) -> torch.Tensor:
    o = torch.nn.functional.scaled_dot_product_attention(
        q.to(torch.float64), k.to(torch.float64), v.to(torch.float64), is_causal=bool(causal)
    )
    return o.to(q.dtype)


def naive(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: int) -> torch.Tensor:
    """The materialized version: the whole seq×seq score matrix written to memory, masked,
    softmaxed in fp32 and read back for the second matmul."""
    s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        n = q.shape[-2]
        future = torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1)
        s = s.masked_fill(future, float("-inf"))
    return torch.softmax(s.float(), dim=-1).to(q.dtype) @ v


def _sdpa(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: int) -> torch.Tensor:
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))


BASELINES = {"naive": naive, "torch": _sdpa}


def minimal_bytes(inputs: list[torch.Tensor | int], output: torch.Tensor) -> int:
    tensors = [a for a in inputs if isinstance(a, torch.Tensor)]
    return sum(t.numel() * t.element_size() for t in [*tensors, output])


def flops(inputs: list[torch.Tensor | int], output: torch.Tensor) -> int:
    q, _k, _v, causal = inputs
    assert isinstance(q, torch.Tensor)
    batch, heads, n, dim = q.shape
    work = 4 * batch * heads * n * n * dim
    return work // 2 if causal else work

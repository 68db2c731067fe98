"""One timed GPU call, the same way for the sandboxed child and for the trusted parent (which
times the baselines itself: turns.py, compiled.py), and a timed round's fresh inputs and
checked positions, drawn identically on both sides. Only torch is imported here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

HOST_SLACK_CYCLES = 1_000_000  # ~0.5 ms at 2 GHz: longer than any launch path we have seen


_CYCLES_PER_US: list[float] = []  # the spin kernel's rate on this GPU, measured once
MAX_WAIT_US = 20_000.0


def wait_cycles(us: float) -> int:
    """Spin-kernel cycles that last about `us` µs (at most MAX_WAIT_US) on this GPU."""
    if not _CYCLES_PER_US:
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        torch.cuda._sleep(1000)
        start.record()
        torch.cuda._sleep(HOST_SLACK_CYCLES)
        end.record()
        end.synchronize()
        _CYCLES_PER_US.append(HOST_SLACK_CYCLES / max(start.elapsed_time(end) * 1e3, 1.0))
    return max(1, int(min(us, MAX_WAIT_US) * _CYCLES_PER_US[0]))


def timed_call(
    fn: Callable[..., Any], args: list[Any], flush: torch.Tensor
) -> tuple[float, float, Any]:
    """(µs between the events around the call, µs until a device-wide synchronize, result).

    The L2 is flushed first. The GPU is kept busy (a spin kernel) while the host records the
    start event and launches: the interval then holds the GPU's work, not Python's launch
    latency (20-60 µs for a Triton launch against a few µs for a PyTorch op, which would swamp
    short kernels)."""
    torch.cuda.synchronize()
    flush.zero_()
    torch.cuda._sleep(HOST_SLACK_CYCLES)
    start, end, after = (torch.cuda.Event(enable_timing=True) for _ in range(3))
    start.record()
    result = fn(*args)
    end.record()
    torch.cuda.synchronize()
    after.record()
    after.synchronize()
    return start.elapsed_time(end) * 1e3, start.elapsed_time(after) * 1e3, result


def fresh_inputs(make_inputs: Callable[..., Any], case: Any, seed: int) -> list[Any]:
    """A timed round's inputs, drawn on the GPU from its seed: the parent draws the same ones
    (the same generator, device and torch) to check the output and time the baselines."""
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    return list(make_inputs(case, gen))


def sample_positions(numel: int, seed: int, count: int) -> torch.Tensor:
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    return torch.randint(0, max(numel, 1), (count,), generator=gen, device="cuda")

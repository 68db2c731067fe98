"""One timed GPU call, the same way for the sandboxed child and for the trusted parent (which
times the baselines itself: turns.py, compiled.py), and a timed round's fresh inputs and
checked positions, drawn identically on both sides, and `place`, which puts every call's
tensors (checked, warm-up, timed, profiled) at fresh addresses no submission can predict.
Only torch and the stdlib are imported here.

On a CPU (the tests' stand-in for the GPU stage: `flush` on the CPU) a timed call is timed by
the host clock and nothing spins; every other step is the same."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from types import SimpleNamespace
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
    if flush.device.type == "cpu":  # the CPU stand-in (tests): the host clock, no spin
        flush_l2(flush)
        began = time.perf_counter()
        result = fn(*args)
        took = (time.perf_counter() - began) * 1e6
        return took, took, result
    torch.cuda.synchronize()
    flush_l2(flush)
    torch.cuda._sleep(HOST_SLACK_CYCLES)
    start, end, after = (torch.cuda.Event(enable_timing=True) for _ in range(3))
    start.record()
    result = fn(*args)
    end.record()
    torch.cuda.synchronize()
    after.record()
    after.synchronize()
    return start.elapsed_time(end) * 1e3, start.elapsed_time(after) * 1e3, result


def flush_l2(flush: torch.Tensor) -> None:
    """Evict the L2 before a timed call, with both kinds of traffic: every line of a buffer
    of twice the L2 is read and written (`mul_` loads and stores each line, where `zero_` only
    stores, and stores alone may leave lines a kernel marked `evict_last` in place). The
    persisting-L2 window, where the driver offers one, is reset first (`reset_persisting`)."""
    reset_persisting()
    flush.mul_(0.5)


_PERSIST: list[Callable[[], Any]] = []


def reset_persisting() -> None:
    """cudaCtxResetPersistingL2Cache where this torch exposes it: lines a kernel made
    persisting (an access policy window) go back to normal, so the flush evicts them. Looked up
    once; a CPU run, or a torch without the call, skips it."""
    if not _PERSIST:
        cudart = torch.cuda.cudart() if torch.cuda.is_available() else None
        call = getattr(cudart, "cudaCtxResetPersistingL2Cache", None)
        _PERSIST.append(call if callable(call) else lambda: None)
    _PERSIST[0]()


def with_family(case: Any, family: dict[str, Any] | None) -> Any:
    """Round r's case: the shape's own case with its input family's parameters (a family
    never overrides what the shape itself sets: the timed work's size stays the shape's)."""
    if not family:
        return case
    params = {**family, **dict(case.params)}
    if hasattr(case, "model_copy"):
        return case.model_copy(update={"params": params})
    return SimpleNamespace(**{**vars(case), "params": params})


def fresh_inputs(
    make_inputs: Callable[..., Any],
    case: Any,
    seed: int,
    family: dict[str, Any] | None = None,
    device: str = "cuda",
) -> list[Any]:
    """A timed round's inputs, drawn on the GPU from its seed and of its input family: the
    parent draws the same ones (the same generator, device and torch) to check the output and
    time the baselines."""
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    return list(make_inputs(with_family(case, family), gen))


def sample_positions(numel: int, seed: int, count: int, device: str = "cuda") -> torch.Tensor:
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    return torch.randint(0, max(numel, 1), (count,), generator=gen, device=device)


PLACE_ALIGN = 256  # bytes: every offset keeps the 16-byte alignment Triton specializes on
PLACES = 4096  # offsets a tensor may start at past its allocation's start (never 0)
_PLACER = random.SystemRandom()  # not the submission's `random`, and no seed it can set


def place(args: list[Any]) -> list[Any]:
    """Every tensor argument copied into a fresh allocation, starting at one of PLACES
    offsets drawn here (the caching allocator hands the same block back call after call: the
    offset is what moves), with its own shape and strides. Every call of the entry gets its
    tensors this way, checked or timed: no `is`, `data_ptr()`, storage offset or stride says
    which kind of call it is, and no answer can be keyed on an address."""
    out: list[Any] = []
    for a in args:
        if not isinstance(a, torch.Tensor):
            out.append(a)
            continue
        extent = 1 + sum((n - 1) * st for n, st in zip(a.shape, a.stride(), strict=True))
        extent = extent if a.numel() else 0
        shift = _PLACER.randrange(1, PLACES + 1) * (PLACE_ALIGN // a.element_size())
        raw = torch.empty(shift + extent, dtype=a.dtype, device=a.device)
        t = raw.as_strided(a.shape, a.stride(), shift)
        t.copy_(a)
        out.append(t)
    return out

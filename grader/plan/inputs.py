"""Random inputs drawn fast in the trusted parent, for checkpoints' `make_inputs`.

torch fills a normal tensor from one generator on one core: a 4096 × 128256 input took 2 s on
this 2-core machine and more on a GPU host, twice per benchmark shape. Here the tensor is
filled a block at a time on every core, each block from its own generator seeded from the
grading's (secret) one: the values depend on that seed and the shape, not on the number of
threads.

A `problem.py` imports this inside `make_inputs`: the sandboxed child loads the same file for
its baselines and cannot import `grader`.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import torch

BLOCK = 1 << 22  # elements per generator


def usable_cpus() -> int:
    """The CPUs this process may run on: a worker pinned to part of the host (taskset, a
    container's cpuset) gets that part, not os.cpu_count()'s whole host."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def randn(shape: list[int] | tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Standard normal float32 samples of `shape`, drawn from `gen`'s stream of seeds."""
    out = torch.empty(tuple(shape), dtype=torch.float32)
    flat = out.view(-1)
    base = int(torch.randint(0, 1 << 62, (1,), generator=gen))
    starts = list(range(0, flat.numel(), BLOCK))

    def fill(i: int) -> None:
        g = torch.Generator().manual_seed(base + i)
        flat[starts[i] : starts[i] + BLOCK].normal_(generator=g)

    if len(starts) <= 1:
        for i in range(len(starts)):
            fill(i)
    else:
        with ThreadPoolExecutor(max_workers=min(len(starts), usable_cpus())) as pool:
            list(pool.map(fill, range(len(starts))))
    return out

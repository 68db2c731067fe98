"""grader.plan.inputs.randn: the parent's fast normal draw (a generator per block, blocks on every
core). The values must follow from the seed and the shape alone, and look normal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import torch

from grader.plan import inputs

ROOT = Path(__file__).resolve().parents[2]


def test_the_draw_follows_the_seed_not_the_threads() -> None:
    shape = (3, inputs.BLOCK + 12345)  # two blocks, the second partial
    a = inputs.randn(shape, torch.Generator().manual_seed(7))
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        b = inputs.randn(shape, torch.Generator().manual_seed(7))
    finally:
        torch.set_num_threads(threads)
    assert a.shape == shape and a.dtype == torch.float32
    assert torch.equal(a, b)
    c = inputs.randn(shape, torch.Generator().manual_seed(8))
    assert not torch.equal(a, c)


def test_blocks_are_different_draws_and_the_whole_is_standard_normal() -> None:
    x = inputs.randn((4 * inputs.BLOCK,), torch.Generator().manual_seed(1))
    blocks = x.view(4, inputs.BLOCK)
    assert not torch.equal(blocks[0], blocks[1])  # each block has a generator of its own
    assert abs(float(x.mean())) < 1e-3 and abs(float(x.std()) - 1.0) < 1e-3
    assert bool(torch.isfinite(x).all())


def test_a_small_draw_and_the_next_draw_of_the_same_generator_differ() -> None:
    gen = torch.Generator().manual_seed(3)
    first, second = inputs.randn((5, 7), gen), inputs.randn((5, 7), gen)
    assert not torch.equal(first, second)  # the generator moves on, like torch.randn's


def test_a_worker_pinned_to_part_of_the_host_uses_that_part() -> None:
    """Under taskset or a container's cpuset, the parallel draw and the validation's side by
    side gradings size themselves to the CPUs they may use, not to the whole host."""
    script = (
        "import os, sys; sys.path.insert(0, '.');"
        "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))});"
        "from grader.plan.inputs import usable_cpus; print(usable_cpus())"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "1"

"""Under the Triton interpreter only: a launch's programs run in an order drawn afresh for each
launch, not in program-id order. The interpreter runs a grid's programs one after another, so
a kernel whose programs hand data to each other through global memory in program-id order
(program i reads what program i - 1 stored) always looked right here while a GPU, which runs
them at once, races. Every program still runs exactly once; a kernel whose programs are
independent (or combine with atomics) gets the same answer in any order.

The grid loop visits (x, y, z) in order and calls `set_grid_idx` before each program: that
call is mapped through a permutation of the grid drawn in `set_grid_dim`. A GPU grading never
imports this.
"""

from __future__ import annotations

import os
import random
from typing import Any

MAX_PROGRAMS = 1 << 22  # a grid larger than this keeps its order (no interpreter case is)
_draw = random.SystemRandom()
_installed = False


def install() -> bool:
    global _installed
    if os.environ.get("TRITON_INTERPRET") != "1":
        return False
    if _installed:
        return True
    from triton.runtime.interpreter import InterpreterBuilder

    set_dim, set_idx = InterpreterBuilder.set_grid_dim, InterpreterBuilder.set_grid_idx

    def set_grid_dim(self: Any, nx: int, ny: int, nz: int) -> None:
        set_dim(self, nx, ny, nz)
        total = nx * ny * nz
        order = list(range(total)) if 0 < total <= MAX_PROGRAMS else None
        if order is not None:
            _draw.shuffle(order)
        self._kgrade_order = order

    def set_grid_idx(self: Any, x: int, y: int, z: int) -> None:
        order = getattr(self, "_kgrade_order", None)
        _, ny, nz = self.grid_dim
        if order is not None and x < self.grid_dim[0] and y < ny and z < nz:
            p = order[(x * ny + y) * nz + z]
            x, y, z = p // (ny * nz), (p // nz) % ny, p % nz
        set_idx(self, x, y, z)

    InterpreterBuilder.set_grid_dim = set_grid_dim
    InterpreterBuilder.set_grid_idx = set_grid_idx
    _installed = True
    return True

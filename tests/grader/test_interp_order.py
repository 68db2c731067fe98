"""Under the interpreter a launch's programs run in a drawn order (harness/interp_order.py):
red team 4's kernel handed each block to the next program through global memory, which only
works when the programs run one after another in id order, as Triton's interpreter ran them;
a GPU runs them at once. Every program still runs exactly once."""

from __future__ import annotations

from tests.grader.interpreted import run_interpreted

SCRIPT = """
import json, sys
sys.path.insert(0, "grader/sandbox")
from harness import interp_order
assert interp_order.install()
import torch, triton, triton.language as tl

@triton.jit
def record(seen_ptr, count_ptr):
    pid = tl.program_id(0) * tl.num_programs(1) * tl.num_programs(2) \\
        + tl.program_id(1) * tl.num_programs(2) + tl.program_id(2)
    slot = tl.atomic_add(count_ptr, 1)
    tl.store(seen_ptr + slot, pid)

orders = []
for grid in [(40,), (5, 4, 3)]:
    for _ in range(3):
        n = 1
        for g in grid:
            n *= g
        seen = torch.full((n,), -1, dtype=torch.int32)
        count = torch.zeros(1, dtype=torch.int32)
        record[grid](seen, count)
        orders.append(seen.tolist())
print(json.dumps(orders))
"""


def test_every_program_runs_once_in_an_order_drawn_for_each_launch() -> None:
    orders = run_interpreted(SCRIPT)
    for order in orders:
        assert sorted(order) == list(range(len(order)))  # each program once
    assert all(order != sorted(order) for order in orders)  # 40! and 60! orders: never sorted
    assert orders[0] != orders[1] != orders[2]  # drawn again for each launch

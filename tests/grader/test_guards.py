"""The child's TorchGuard, in a fresh process as in the sandbox: what it flags and poisons, and
that entering it costs no import of torch._dynamo (1 s here, 3-4 s on the GPU host, in every
grading: measured on 2026-11-30 with benchmarks/child_start_parts.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
sys.path.insert(0, "grader")
import torch
from harness import guards
guard = guards.TorchGuard({"add"}, 1e30)
with guard:
    x = torch.empty(4)
    y = x.add(1)
    z = torch.softmax(y, 0)
print(json.dumps({
    "dynamo": "torch._dynamo" in sys.modules,
    "forbidden": guard.forbidden,
    "poisoned": bool((x == 1e30).all()),
}))
"""


def test_the_guard_flags_and_poisons_without_importing_dynamo() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "CUDA_VISIBLE_DEVICES": "", "TRITON_INTERPRET": "1"},
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["forbidden"] == ["torch.ops.aten._softmax"]
    assert seen["poisoned"]
    assert not seen["dynamo"], "the guard's first op imported torch._dynamo"

"""The cross-entropy reference splits rows of 65536 columns or more in two (faster on an H200
for 128k vocabularies). The checkpoint's CPU cases are shorter, so the split path is checked
here, under the Triton interpreter, against torch: targets in either half, every dtype."""

from __future__ import annotations

from grader import checkpoints
from tests.grader.interpreted import run_interpreted

SCRIPT = r"""
import importlib.util, json, sys
import torch
spec = importlib.util.spec_from_file_location("ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
g = torch.Generator().manual_seed(0)
errors = {}
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    x = (torch.randn(3, ref.SPLIT_FROM + 4471, generator=g) * 4).to(dtype)
    t = torch.tensor([5, ref.SPLIT_FROM - 1, x.shape[1] - 1])  # first half, border, second half
    got = ref.cross_entropy_triton(x, t)
    want = torch.nn.functional.cross_entropy(x.float(), t)
    errors[str(dtype)] = abs(float(got) - float(want)) / abs(float(want))
print(json.dumps(errors))
"""


def test_the_split_path_agrees_with_torch() -> None:
    path = checkpoints.get("c3a-cross-entropy").reference_solution
    errors = run_interpreted(SCRIPT, str(path))
    assert errors and all(e < 1e-5 for e in errors.values()), errors

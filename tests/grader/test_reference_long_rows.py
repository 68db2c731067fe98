"""The cross-entropy reference loads whole chunks without a mask and takes the tail after the
loop. The checkpoint's CPU cases all have a tail; here, under the Triton interpreter, rows that
are an exact number of chunks (no tail) and rows with a one-column tail are checked against
torch, every dtype."""

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
    for n_cols in (3 * 2048, 3 * 2048 + 1):
        block = ref._launch_params(n_cols)[0]
        assert n_cols // block == 3, block  # three whole chunks, then a tail or none
        x = torch.randn(3, n_cols, generator=g) * 4
        # one column dominates each row's logsumexp, so a chunk left out shows: the first
        # chunk, the first column after a border, the last column
        x[0, 7], x[1, block], x[2, -1] = 30.0, 30.0, 30.0
        x = x.to(dtype)
        t = torch.tensor([5, block - 1, n_cols - 2])
        got = ref.cross_entropy_triton(x, t)
        want = torch.nn.functional.cross_entropy(x.float(), t)
        errors[f"{dtype} {n_cols}"] = abs(float(got) - float(want)) / abs(float(want))
print(json.dumps(errors))
"""


def test_whole_chunks_and_a_one_column_tail_agree_with_torch() -> None:
    path = checkpoints.get("c3a-cross-entropy").reference_solution
    errors = run_interpreted(SCRIPT, str(path))
    assert len(errors) == 6 and all(e < 1e-5 for e in errors.values()), errors

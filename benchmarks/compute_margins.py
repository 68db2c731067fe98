"""Issue 23: the compute references' error on shapes larger than their interpreter cases (some
of their GPU cases, cut to fit a CPU), under the interpreter with bf16 computed as a GPU rounds
it (the harness's interp_bf16): does each checkpoint's tolerance admit an honest kernel with a
margin? Prints each case's max abs error and the comparison the grader makes.

    .venv/bin/python benchmarks/compute_margins.py
"""

import importlib.util
import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, "grader/sandbox/harness")
import interp_bf16

print("bf16 patch", interp_bf16.install(), interp_bf16.status())
import torch  # noqa: E402

from grader import checkpoints  # noqa: E402
from grader.judge.compare import compare  # noqa: E402
from grader.models import CaseSpec  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location("m" + str(abs(hash(path))), path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


for cid, cases in [
    (
        "c3a-attention",
        [
            CaseSpec(
                name="sharp-bf16", shape=[1, 1, 1024, 64], dtype="bfloat16", params={"q_scale": 3.0}
            ),
            CaseSpec(
                name="causal-bf16-d128",
                shape=[1, 1, 1000, 128],
                dtype="bfloat16",
                params={"causal": 1},
            ),
            CaseSpec(
                name="offset-fp16",
                shape=[1, 1, 2048, 64],
                dtype="float16",
                params={"q_scale": 0.01, "v_offset": 100.0},
            ),
        ],
    ),
    (
        "c3a-gemm-e3",
        [
            CaseSpec(name="k-tail-bf16", shape=[256, 256, 1000], dtype="bfloat16"),
            CaseSpec(
                name="long-k-offset",
                shape=[128, 128, 8192],
                dtype="float16",
                params={"offset": 1.0},
            ),
        ],
    ),
]:
    ck = checkpoints.get(cid)
    mod = load(str(ck.reference_solution))
    entry = getattr(mod, ck.definition.entry)
    for case in cases:
        t = time.monotonic()
        inputs = ck.make_inputs(case, torch.Generator().manual_seed(3))
        want = ck.reference(inputs)
        got = entry(*[a.clone() if isinstance(a, torch.Tensor) else a for a in inputs])
        tol = ck.definition.tolerances[case.dtype]
        r = compare(got, want, tol)
        err = (got.double() - want.double()).abs().max().item()
        print(
            cid,
            case.name,
            "max abs err",
            f"{err:.3g}",
            r,
            f"{time.monotonic() - t:.0f}s",
            flush=True,
        )

"""The drifting-values case of c3a-attention (a GPU case) measured on the CPU under the
interpreter at seq 2048/4096, head_dim 16: max |got - want| / (atol + rtol·|want|) of the
reference and of the three fp16-accumulator red-team files, values 64 + spread·randn + a ramp.

    .venv/bin/python benchmarks/attention_drift.py
"""

import importlib.util
import os
import sys

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, "grader/sandbox/harness")
import interp_bf16

interp_bf16.install()
import torch  # noqa: E402

from grader import checkpoints  # noqa: E402

ck = checkpoints.get("c3a-attention")


def load(p):
    s = importlib.util.spec_from_file_location("m" + str(abs(hash(p))), p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


ks = {
    n: load(p)
    for n, p in [
        ("reference", str(ck.reference_solution)),
        ("normalized_acc", "tests/fixtures/submissions/redteam/attn_fp16_normalized_acc.py"),
        ("pv_dot_out_fp16", "tests/fixtures/submissions/redteam/attn_pv_dot_out_fp16.py"),
        ("fp16_rowsum", "tests/fixtures/submissions/redteam/attn_fp16_rowsum.py"),
    ]
}
for n_ctx, ramp, spread in [(2048, 1.0, 0.05), (4096, 2.0, 0.05), (4096, 2.0, 1.0)]:
    g = torch.Generator().manual_seed(3)
    shape = (1, 1, n_ctx, 16)
    q = (torch.randn(shape, generator=g) * 0.01).half()
    k = torch.randn(shape, generator=g).half()
    v = (
        torch.randn(shape, generator=g) * spread
        + 64
        + torch.linspace(0, ramp, n_ctx).view(n_ctx, 1)
    ).half()
    want = ck.reference([q, k, v, 0]).double()
    tol = 2e-3 + 5e-3 * want.abs()
    for name, m in ks.items():
        got = m.attention_triton(q.clone(), k.clone(), v.clone(), 0).double()
        r = ((got - want).abs() / tol).max().item()
        print(f"seq {n_ctx} ramp {ramp} spread {spread}: {name:16} max err/tol {r:.3f}", flush=True)

"""The attention cases that target unsafe numerics (a softmax without its running max, fp16
accumulators): each kernel file's error on each case under the interpreter (bf16 rounded as a
GPU rounds it, the harness's interp_bf16), as a ratio to the checkpoint's tolerance
(max |got − want| / (atol + rtol·|want|); a case passes when it is ≤ 1, and NaN/inf fail).

    .venv/bin/python benchmarks/attention_numerics.py [CASE ...]

CASE names an interpreter case of reference_kernels/c3a_attention/checkpoint.toml (default:
the numerics cases); the kernels are the reference, the red-team files and solutions/wrong.
"""

import importlib.util
import os
import sys
import time
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, "grader/sandbox/harness")
import interp_bf16

print("bf16 patch", interp_bf16.install(), interp_bf16.status())
import torch  # noqa: E402

from grader import checkpoints  # noqa: E402
from grader.judge.compare import compare  # noqa: E402

RT = Path("tests/fixtures/submissions/redteam")
CK = checkpoints.get("c3a-attention")
KERNELS = [CK.reference_solution, *sorted(RT.glob("*attn*.py"))]
KERNELS += sorted((CK.folder / "solutions" / "wrong").glob("*.py"))
DEFAULT = ["large-scores", "large-scores-causal-bf16"]


def load(path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("m" + str(abs(hash(str(path)))), path)
    m = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(m)  # type: ignore[union-attr]
    return m


def ratio(got: torch.Tensor, want: torch.Tensor, atol: float, rtol: float) -> float:
    d = (got.double() - want.double()).abs()
    r = d / (atol + rtol * want.double().abs())
    return float("nan") if not torch.isfinite(got.double()).all() else r.max().item()


names = sys.argv[1:] or DEFAULT
cases = [c for c in CK.definition.interpreter_cases if c.name in names]
for case in cases:
    inputs = CK.make_inputs(case, torch.Generator().manual_seed(3))
    want = CK.reference(inputs)
    tol = CK.definition.tolerances[case.dtype]
    for path in KERNELS:
        t = time.monotonic()
        print(f"{case.name:28} {path.stem:32}", end=" ", flush=True)
        try:
            entry = getattr(load(path), CK.definition.entry)
            got = entry(*[a.clone() if isinstance(a, torch.Tensor) else a for a in inputs])
            ok = compare(got, want, tol)
            r = f"{ratio(got, want, tol.atol, tol.rtol):8.3g}"
        except Exception as e:
            ok, r = f"error {type(e).__name__}", "     -"
        print(f"err/tol {r}  {ok}  {time.monotonic() - t:.0f}s", flush=True)

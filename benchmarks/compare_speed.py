"""CPU cost of checking one large output in the trusted parent (grader.judge.compare), against the
same function at a baseline revision, interleaved. The parent checks every GPU output this way
as it streams in (a softmax grading checks about ten 8192×4096 outputs in full).

    .venv/bin/python benchmarks/compare_speed.py [--baseline REV] [--rounds 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from benchmarks._common import DATE, RESULTS, machine  # noqa: E402
from grader.judge import compare as current  # noqa: E402
from grader.models import Tolerance  # noqa: E402


def at_revision(rev: str):  # type: ignore[no-untyped-def]
    text = subprocess.run(
        ["git", "show", f"{rev}:grader/judge/compare.py"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "compare_baseline.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("compare_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["compare_baseline"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="2798aac")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    base = at_revision(args.baseline)
    tol = Tolerance(atol=1e-5, rtol=1e-5)
    g = torch.Generator().manual_seed(0)
    record: dict = {"machine": machine(), "baseline": args.baseline, "cases": {}}  # type: ignore[type-arg]
    for dtype in (torch.float32, torch.bfloat16):
        ref = torch.softmax(torch.randn(8192, 4096, generator=g), -1).to(dtype)
        out = ref.clone()
        out.view(-1)[::97] += torch.tensor(1e-7, dtype=dtype)
        rows: dict[str, list[list[float]]] = {"baseline": [], "current": []}
        for _ in range(args.rounds):
            for name, mod in (("baseline", base), ("current", current)):
                c, t = cpu(), time.perf_counter()
                result = mod.compare(out, ref, tol)
                rows[name].append([time.perf_counter() - t, cpu() - c])
                assert result.passed
        summary = {
            name: {
                "wall_s": round(statistics.median(r[0] for r in rs), 3),
                "cpu_s": round(statistics.median(r[1] for r in rs), 3),
            }
            for name, rs in rows.items()
        }
        record["cases"][f"8192x4096-{str(dtype).removeprefix('torch.')}"] = summary
        print(f"8192x4096 {dtype}: {summary}", flush=True)
    out_path = RESULTS / f"{DATE}-cpu-compare-speed.json"
    out_path.write_text(json.dumps(record, indent=1))
    print(f"threads {torch.get_num_threads()}; wrote {out_path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

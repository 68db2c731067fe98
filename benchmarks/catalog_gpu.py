"""The security catalogs graded on a GPU: every honest file must be `correct` there too, and no
hostile one may be. The CPU suite grades them under the interpreter on every `make test`; this
checks that the allowlist and the launch checks refuse nothing honest where the kernels really
run (JITFunction, not the interpreter), and that the limits' fallbacks hold on the GPU host.

    python3 benchmarks/catalog_gpu.py OUT.json [--benchmark]

Correctness stage only by default (no timing, no Nsight): a few seconds a file. Writes the
rows to OUT.json (committed under benchmarks/results/ with the device call's record), prints one
line a file, and exits 1 if any file got a verdict its header does not allow.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import checkpoints, grade  # noqa: E402
from grader.options import GradeOptions  # noqa: E402
from grader.sandbox.bwrap import Limits  # noqa: E402

FOLDERS = [ROOT / "tests" / "security" / "honest", ROOT / "tests" / "security" / "attacks"]


def header(path: Path) -> tuple[set[str], str]:
    lines = path.read_text().splitlines()[:6]
    expect = set(lines[0].removeprefix("# expect: ").split("|"))
    cid = next(
        (ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("# checkpoint:")),
        "c3a-softmax",
    )
    return expect, cid


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--benchmark", action="store_true", help="also time the honest ones")
    ap.add_argument("--only", choices=["honest", "attacks"], help="one catalog only")
    args = ap.parse_args()
    import torch
    import triton

    info = {
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "python": platform.python_version(),
    }
    rows: list[dict[str, object]] = []
    lines: list[str] = []
    bad = 0
    for folder in [f for f in FOLDERS if args.only in {None, f.name}]:
        for path in sorted(folder.glob("*.py")):
            expect, cid = header(path)
            honest = folder.name == "honest"
            options = GradeOptions(
                device="cuda",
                limits=Limits(wall_seconds=60),
                benchmark=args.benchmark and honest,
                profile=False,
            )
            started = time.monotonic()
            result = grade(path.read_text(), checkpoints.get(cid), options)
            wall = time.monotonic() - started
            ok = result.verdict.value in expect and (honest or result.verdict.value != "correct")
            bad += not ok
            first = result.messages[1] if len(result.messages) > 1 else ""
            rows.append(
                {
                    "file": f"{folder.name}/{path.name}",
                    "checkpoint": cid,
                    "expect": sorted(expect),
                    "verdict": result.verdict.value,
                    "ok": ok,
                    "wall": round(wall, 2),
                    "limits": result.limits,
                    "message": first[:300],
                }
            )
            lines.append(
                f"{'ok ' if ok else 'BAD'} {folder.name}/{path.name:42} {result.verdict.value:14}"
                f" {wall:6.1f} s  {first[:120]}"
            )
            print(lines[-1], flush=True)
            # written after every file: a call cut short still leaves what it graded
            args.out.write_text(json.dumps({"machine": info, "rows": rows, "bad": bad}, indent=1))
    summary = f"{len(rows)} files, {bad} with a verdict their header does not allow"
    lines.append(summary)
    print(summary)
    args.out.write_text(json.dumps({"machine": info, "rows": rows, "bad": bad}, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

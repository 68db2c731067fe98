"""Wall time of validating a checkpoint (the admin's wait when adding one): its gradings one at
a time against side by side (one per core, grader.validation's default), interleaved.

    .venv/bin/python benchmarks/validation_speed.py [--checkpoint c3a-softmax] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import DATE, RESULTS, loadavg, machine  # noqa: E402
from grader import checkpoints  # noqa: E402
from grader.options import GradeOptions  # noqa: E402
from grader.validation import validate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default="c3a-softmax")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    ck = checkpoints.get(args.checkpoint)
    options = GradeOptions(device="cpu")
    cores = os.cpu_count() or 1
    walls: dict[str, list[float]] = {"one at a time": [], f"{cores} side by side": []}
    lines = []
    for r in range(args.rounds):
        for name, workers in (("one at a time", 1), (f"{cores} side by side", None)):
            t = time.perf_counter()
            checks = validate(ck, options, workers=workers)
            wall = time.perf_counter() - t
            assert all(c.ok for c in checks), checks
            walls[name].append(wall)
            line = f"round {r + 1}: {name}: {len(checks)} checks in {wall:.1f} s (load {loadavg()})"
            print(line, flush=True)
            lines.append(line)
    summary = {k: round(statistics.median(v), 1) for k, v in walls.items()}
    lines.append(f"{args.checkpoint}: median wall {summary}")
    print(lines[-1])
    record = {
        "machine": machine(),
        "checkpoint": args.checkpoint,
        "walls": walls,
        "median": summary,
    }
    (RESULTS / f"{DATE}-cpu-validation-speed.json").write_text(json.dumps(record, indent=1))
    (RESULTS / f"{DATE}-cpu-validation-speed.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

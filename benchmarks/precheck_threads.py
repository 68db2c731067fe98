"""CPU prechecks side by side, as precheck workers of one host run them, with torch's default
threads (one per core) against one thread each (KGRADE_PRECHECK_THREADS=1): wall time of the
batch and each grading's stages, the two settings interleaved round by round.

    .venv/bin/python benchmarks/precheck_threads.py [--side-by-side 4] [--rounds 4]

Each precheck is `kgrade grade FILE --device cpu --json` in a fresh process, as a worker's pool
runs it. Writes benchmarks/results/DATE-cpu-precheck-threads.{txt,json}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import DATE, machine, write  # noqa: E402

SOURCES = [
    ("c3a-vector-add", "c3a_vector_add/solutions/wrong/calls_pytorch.py"),
    ("c3a-softmax", "c3a_softmax/reference.py"),
    ("c3a-cross-entropy", "c3a_cross_entropy/solutions/wrong/missing_mask.py"),
    ("c3a-rmsnorm", "c3a_rmsnorm/reference.py"),
]
SETTINGS = {"default": None, "1 thread": "1"}


def batch(n: int, threads: str | None) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    if threads is not None:
        env |= {"OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
    t = time.monotonic()
    procs = []
    for i in range(n):
        cid, rel = SOURCES[i % len(SOURCES)]
        argv = [sys.executable, "-m", "app.cli", "grade", f"reference_kernels/{rel}", "-c", cid]
        procs.append(
            subprocess.Popen(
                [*argv, "--device", "cpu", "--json"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
        )
    gradings = []
    for p in procs:
        out, _ = p.communicate()
        d = json.loads(out)
        gradings.append({"verdict": d["verdict"], **{k: float(v) for k, v in d["stages"].items()}})
    return {"wall": time.monotonic() - t, "gradings": gradings}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--side-by-side", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    seen: dict[str, list[dict[str, Any]]] = {name: [] for name in SETTINGS}
    for r in range(args.rounds):
        for name, threads in SETTINGS.items():
            seen[name].append(batch(args.side_by_side, threads))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    lines = [
        f"{args.side_by_side} CPU prechecks side by side on {os.cpu_count()} cores, "
        f"{args.rounds} rounds, medians (seconds), {DATE}"
    ]
    summary: dict[str, Any] = {}
    for name, batches in seen.items():
        every = [g for b in batches for g in b["gradings"]]
        m = {
            "batch_wall": statistics.median(b["wall"] for b in batches),
            **{k: statistics.median(g.get(k, 0.0) for g in every) for k in ("inputs", "total")},
            "inputs_max": max(g.get("inputs", 0.0) for g in every),
            "verdicts": sorted({g["verdict"] for g in every}),
        }
        summary[name] = m
        lines.append(
            f"  {name:>8}: batch {m['batch_wall']:.2f}  per grading: total {m['total']:.2f}  "
            f"inputs {m['inputs']:.2f} (max {m['inputs_max']:.2f})  {m['verdicts']}"
        )
    text = "\n".join(lines)
    print(text)
    write("precheck-threads", {"machine": machine(), "summary": summary, "raw": seen}, text)


if __name__ == "__main__":
    main()

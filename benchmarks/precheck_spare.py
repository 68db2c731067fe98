"""Back-to-back CPU prechecks in one process, as a precheck worker's pool runs them: each
starting its own sandboxed child, against each taking the spare child started during the one
before (KGRADE_PRECHECK_SPARE, worker/tasks.py `_swap_spare`). The two ways alternate, a
sequence of each per round.

    .venv/bin/python benchmarks/precheck_spare.py [--rounds 3] [--gradings 8]

Writes benchmarks/results/DATE-cpu-precheck-spare.{txt,json}.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import DATE, machine, write  # noqa: E402
from grader import GradeOptions, checkpoints, grade  # noqa: E402
from grader.pipeline import Spare  # noqa: E402

SOURCES = [
    ("c3a-softmax", "reference.py"),
    ("c3a-vector-add", "solutions/wrong/calls_pytorch.py"),
    ("c3a-rmsnorm", "reference.py"),
    ("c3a-cross-entropy", "solutions/wrong/missing_mask.py"),
]


def sequence(n: int, spare: bool) -> dict[str, Any]:
    options = GradeOptions(device="cpu")
    waiting = Spare(options) if spare else None  # the worker's first spare: started at boot
    if waiting is not None:
        time.sleep(3)
    gradings = []
    t0 = time.monotonic()
    for i in range(n):
        cid, rel = SOURCES[i % len(SOURCES)]
        ck = checkpoints.get(cid)
        t = time.monotonic()
        mine, waiting = waiting, (Spare(options) if spare else None)
        result = grade((ck.folder / rel).read_text(), ck, options, mine)
        if mine is not None and not mine.used:
            mine.discard()
        gradings.append(
            {"wall": time.monotonic() - t, "verdict": result.verdict.value, **result.stages}
        )
    wall = time.monotonic() - t0
    if waiting is not None:
        waiting.discard()
    return {"wall": wall, "gradings": gradings}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--gradings", type=int, default=8)
    args = ap.parse_args()
    seen: dict[str, list[dict[str, Any]]] = {"own child": [], "spare": []}
    for r in range(args.rounds):
        for name in seen:
            seen[name].append(sequence(args.gradings, name == "spare"))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    lines = [
        f"{args.gradings} CPU prechecks back to back in one process, {args.rounds} rounds, "
        f"medians (seconds), {DATE}"
    ]
    summary = {}
    for name, runs in seen.items():
        every = [g for run in runs for g in run["gradings"]]
        m = {
            "sequence": statistics.median(run["wall"] for run in runs),
            "grading": statistics.median(g["wall"] for g in every),
            "verdicts": sorted({g["verdict"] for g in every}),
        }
        summary[name] = m
        lines.append(
            f"  {name:>9}: {args.gradings} gradings in {m['sequence']:.2f}, one grading "
            f"{m['grading']:.2f}  {m['verdicts']}"
        )
    text = "\n".join(lines)
    print(text)
    write("precheck-spare", {"machine": machine(), "summary": summary, "raw": seen}, text)


if __name__ == "__main__":
    main()

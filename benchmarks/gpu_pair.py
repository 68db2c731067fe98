"""Does one GPU grading slow down while another GPU of the same host grades? Side by side.

Grades a checkpoint's reference N times on one GPU alone, then N times on each of several GPUs
at once (one process per GPU, pinned with CUDA_VISIBLE_DEVICES), optionally with the grading
process's torch CPU threads limited, and writes per-grading wall time, stages and CPU seconds
(the trusted parent's and the sandboxed child's) to OUT/pair.json. Nsight is off: the question
is the host's share of the work.

    python3 benchmarks/gpu_pair.py OUT [--gpus 0,1] [-n 3] [--threads 0,4] [--checkpoint ID]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def one(out: Path, cid: str, n: int, threads: int) -> None:
    """In a process pinned to one GPU: grade `cid`'s reference n times, print JSON lines."""
    sys.path.insert(0, str(ROOT))
    import torch

    from grader import GradeOptions, checkpoints, grade

    if threads:
        torch.set_num_threads(threads)
    ck = checkpoints.get(cid)
    src = ck.reference_solution.read_text()
    for i in range(n):
        r0, c0 = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        t = time.monotonic()
        result = grade(src, ck, GradeOptions(device="cuda", cache_dir=out / "cache", profile=False))
        wall = time.monotonic() - t
        r1, c1 = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        gm = result.benchmark.geomean.get("torch") if result.benchmark else None
        row = {
            "i": i,
            "wall": round(wall, 2),
            "parent_cpu": round(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 2),
            "child_cpu": round(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, 2),
            "stages": result.stages,
            "level": result.level,
            "speedup": gm.median if gm else None,
            "threads": torch.get_num_threads(),
        }
        print(json.dumps(row), flush=True)


def phase(out: Path, cid: str, gpus: list[str], n: int, threads: int) -> list[dict[str, Any]]:
    procs = []
    for g in gpus:
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": g}
        cmd = [sys.executable, __file__, str(out), "--one", cid, str(n), str(threads)]
        procs.append((g, subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True)))
    rows = []
    for g, p in procs:
        stdout, _ = p.communicate()
        for line in stdout.splitlines():
            if line.startswith("{"):
                rows.append({"gpu": g, **json.loads(line)})
    return rows


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[2] == "--one":
        one(Path(sys.argv[1]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--gpus", default="0,1")
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--threads", default="0,4", help="torch CPU threads per run (0: default)")
    ap.add_argument("--checkpoint", default="c3a-softmax")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    gpus = args.gpus.split(",")
    record: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": os.cpu_count(),
        "checkpoint": args.checkpoint,
        "phases": [],
    }
    # warm-up: calibration, the torch.compile baseline and the Triton cache on every GPU
    phase(args.out, args.checkpoint, gpus, 1, 0)
    plans = [("alone", gpus[:1], 0)]
    for t in (int(x) for x in args.threads.split(",")):
        plans.append((f"side by side, threads {t or 'default'}", gpus, t))
    for name, on, threads in plans:
        t = time.monotonic()
        rows = phase(args.out, args.checkpoint, on, args.n, threads)
        summary = {
            k: round(statistics.median(r[k] for r in rows), 2)
            for k in ("wall", "parent_cpu", "child_cpu")
        }
        record["phases"].append(
            {"name": name, "wall": round(time.monotonic() - t, 1), "median": summary, "rows": rows}
        )
        print(name, summary, flush=True)
        (args.out / "pair.json").write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()

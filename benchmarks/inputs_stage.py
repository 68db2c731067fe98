"""Wall time of a grading's inputs stage with problem.py in its own sandbox (issue 32): the
benchmark plan (each benchmark shape's input sets, their references and the byte and FLOP
counts: `grader/gpu/benchmark.plan`) and the correctness cases (`pipeline.plan_runs`), each
built-in checkpoint in a fresh process whose problem.py process is started (and timed) first,
at git revisions checked out side by side and the working tree, interleaved.

    python benchmarks/inputs_stage.py [--rev REV ...] [--tree NAME=PATH ...] [--rounds 2]
        [--device cpu|cuda]
        [--checkpoint ID ...] [--out FILE.json]

Runs on the CPU machine (`--device cpu`: the benchmark shapes at full size, references on the
CPU, the interpreter's cases) and on a GPU host (`--device cuda`: the GPU cases too). Needs
nothing but the grader and bubblewrap (no database), so it runs on the lent GPU machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

ONE = r"""
import json, sys, time
t0 = time.perf_counter()
from grader import checkpoints, pipeline
from grader.gpu import benchmark
from grader.sandbox import problem
cid, device = sys.argv[1], sys.argv[2]
ck = problem.attach(checkpoints.builtins()[cid], device, sandboxed=True)
t1 = time.perf_counter()
ck.problem.declared()
t2 = time.perf_counter()
shapes = benchmark.plan(ck, 1, device)
t3 = time.perf_counter()
runs = pipeline.plan_runs(ck, device, 1)
t4 = time.perf_counter()
moved = sum(sum(a.numel() * a.element_size() for a in s if hasattr(a, "numel"))
            for sh in shapes for s in sh.sets)
print(json.dumps({"start": t2 - t1, "plan": t3 - t2, "runs": t4 - t3, "inputs": t4 - t2,
                  "shapes": len(shapes), "cases": len(runs), "input_bytes": moved}))
"""


def once(tree: Path, cid: str, device: str) -> dict[str, float]:
    path = [str(tree), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}  # the tree's grader first
    out = subprocess.run(
        [sys.executable, "-c", ONE, cid, device],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if out.returncode != 0:
        raise SystemExit(f"{tree} {cid}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", action="append", default=[])
    ap.add_argument("--tree", action="append", default=[], help="NAME=PATH: a copy of a revision")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--checkpoint", action="append", default=[])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    cids = args.checkpoint or ["c3a-softmax", "c3a-rmsnorm", "c3a-vector-add", "c3a-cross-entropy"]
    trees: dict[str, Path] = {}
    scratch = Path(tempfile.mkdtemp(prefix="kgrade-inputs-stage-"))
    try:
        for rev in args.rev:
            where = scratch / rev
            subprocess.run(
                ["git", "worktree", "add", "--detach", "-q", str(where), rev], cwd=ROOT, check=True
            )
            trees[rev] = where
        for named in args.tree:
            name, _, path = named.partition("=")
            trees[name] = Path(path).resolve()
        trees["now"] = ROOT
        got: dict[str, dict[str, list[dict[str, float]]]] = {
            c: {t: [] for t in trees} for c in cids
        }
        for r in range(args.rounds):
            for cid in cids:
                for name, tree in trees.items():
                    one = once(tree, cid, args.device)
                    got[cid][name].append(one)
                    print(f"round {r} {cid:20} {name:10} " + json.dumps(one), flush=True)
                    if args.out:  # kept as it goes: a call cut short keeps what it measured
                        args.out.write_text(json.dumps(_record(args, got), indent=1))
    finally:
        for where in trees.values():
            if where.is_relative_to(scratch):
                subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT)
    print(f"\n{'checkpoint':20} " + " ".join(f"{t + ' inputs (median s)':>28}" for t in trees))
    for cid in cids:
        meds = [statistics.median(x["inputs"] for x in got[cid][t]) for t in trees]
        print(f"{cid:20} " + " ".join(f"{m:28.2f}" for m in meds))


def _record(args: argparse.Namespace, got: dict[str, Any]) -> dict[str, Any]:
    return {"device": args.device, "host": platform.node(), "cpus": os.cpu_count(), "runs": got}


if __name__ == "__main__":
    main()

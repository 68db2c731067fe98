"""What a CPU precheck costs in a long-lived process (a precheck worker's pool process), at git
revisions side by side, interleaved: each round, for each revision, one fresh Python process
grades every source of precheck_speed.py twice in a row (`grade()`, no spare) and reports the
stages of the second grading, the first having warmed what the process keeps (since issue 32,
the checkpoint's sandboxed problem.py process: one per checkpoint version).

    .venv/bin/python benchmarks/precheck_warm.py --rev REV [--rev REV ...] [--rounds 3]
                                                 [--sources N]

Prints medians of the `total` and `inputs` stages per source and revision (seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.precheck_speed import SOURCES  # noqa: E402

ONE = """
import json, sys
from grader import checkpoints, grade
from grader.options import GradeOptions
out = {}
for cid, rel in json.loads(sys.argv[1]):
    ck = checkpoints.get(cid)
    source = open("reference_kernels/" + rel).read()
    grade(source, ck, GradeOptions(device="cpu"))
    r = grade(source, ck, GradeOptions(device="cpu"))
    out[cid + " " + rel] = {**r.stages, "verdict": r.verdict.value}
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sources", type=int, default=len(SOURCES), help="the first N only")
    args = ap.parse_args()
    sources = SOURCES[: args.sources]
    tmp = Path(tempfile.mkdtemp(prefix="kgrade-precheck-warm-"))
    trees = {}
    for rev in args.rev:
        trees[rev] = tmp / rev
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(trees[rev]), rev], cwd=ROOT)
    seen: dict[str, list[dict[str, dict[str, float]]]] = {rev: [] for rev in trees}
    try:
        for r in range(args.rounds):
            for rev, tree in trees.items():
                proc = subprocess.run(
                    [sys.executable, "-c", ONE, json.dumps(sources)],
                    cwd=tree,
                    capture_output=True,
                    text=True,
                    check=True,
                    env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree)},
                )
                seen[rev].append(json.loads(proc.stdout.strip().splitlines()[-1]))
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    finally:
        for tree in trees.values():
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    print(f"precheck in a warm process, the second of two gradings (medians of {args.rounds})")
    for cid, rel in sources:
        key = f"{cid} {rel}"
        print(key)
        for rev in trees:
            runs = [s[key] for s in seen[rev]]
            total = statistics.median(float(x["total"]) for x in runs)
            inputs = statistics.median(float(x.get("inputs", 0.0)) for x in runs)
            verdicts = sorted({str(x["verdict"]) for x in runs})
            print(f"  {rev:>10}: total {total:.2f}  inputs {inputs:.2f}  {verdicts}")


if __name__ == "__main__":
    main()

"""Wall time of one CPU precheck (`kgrade grade FILE --device cpu`, in a fresh process as a
worker's pool runs it) for every built-in reference and one wrong solution of each, at git
revisions checked out side by side, interleaved round by round.

    .venv/bin/python benchmarks/precheck_speed.py [--rev REV ...] [--rounds 5] [--no-work]
                                                  [--name NAME]

Each revision runs from a `git worktree` of its own with this checkout's virtualenv; the
working tree itself is the last one ("HEAD+work") unless --no-work. Reports the grading's own
`total` stage and its parts (inputs, sandbox, the child's wait and start), medians over the
rounds, in benchmarks/results/DATE-cpu-NAME.{txt,json} (NAME: precheck-speed).
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

from benchmarks._common import DATE, machine, write  # noqa: E402

SOURCES = [
    ("c3a-softmax", "c3a_softmax/reference.py"),
    ("c3a-rmsnorm", "c3a_rmsnorm/reference.py"),
    ("c3a-vector-add", "c3a_vector_add/reference.py"),
    ("c3a-cross-entropy", "c3a_cross_entropy/reference.py"),
    ("c3a-softmax", "c3a_softmax/solutions/wrong/no_max_subtraction.py"),
    ("c3a-cross-entropy", "c3a_cross_entropy/solutions/wrong/missing_mask.py"),
]
PARTS = ("total", "inputs", "sandbox", "child_wait", "child_start", "child_cases")


def grade_once(tree: Path, cid: str, rel: str) -> dict[str, float]:
    argv = [sys.executable, "-m", "app.cli", "grade", f"reference_kernels/{rel}", "-c", cid]
    proc = subprocess.run(
        [*argv, "--device", "cpu", "--json"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    data = json.loads(proc.stdout)
    return {k: float(v) for k, v in data["stages"].items()} | {"verdict": data["verdict"]}  # type: ignore[dict-item]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", action="append", default=[], help="a baseline revision (repeat)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-work", action="store_true", help="leave the working tree out")
    ap.add_argument("--name", default="precheck-speed", help="results: DATE-cpu-NAME.*")
    args = ap.parse_args()
    trees: dict[str, Path] = {}
    tmp = Path(tempfile.mkdtemp(prefix="kgrade-precheck-speed-"))
    for rev in args.rev:
        where = tmp / rev
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(where), rev], cwd=ROOT, check=True
        )
        trees[rev] = where
    if not args.no_work:
        trees["HEAD+work"] = ROOT
    seen: dict[str, dict[str, list[dict[str, float]]]] = {
        name: {f"{cid} {rel}": [] for cid, rel in SOURCES} for name in trees
    }
    try:
        for r in range(args.rounds):
            for cid, rel in SOURCES:
                for name, tree in trees.items():
                    seen[name][f"{cid} {rel}"].append(grade_once(tree, cid, rel))
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    finally:
        for where in trees.values():
            if where != ROOT:
                subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT)
    medians = {
        name: {
            src: {p: round(statistics.median(g.get(p, 0.0) for g in runs), 3) for p in PARTS}
            | {"verdicts": sorted({str(g["verdict"]) for g in runs})}
            for src, runs in per.items()
        }
        for name, per in seen.items()
    }
    lines = [f"precheck wall (medians of {args.rounds} rounds, seconds), {DATE}"]
    for src in medians[next(iter(trees))]:
        lines.append(src)
        for name in trees:
            m = medians[name][src]
            lines.append(
                f"  {name:>10}: total {m['total']:.2f}  inputs {m['inputs']:.2f}  sandbox "
                f"{m['sandbox']:.2f}  child wait {m['child_wait']:.2f} start "
                f"{m['child_start']:.2f} cases {m['child_cases']:.2f}  {m['verdicts']}"
            )
    text = "\n".join(lines)
    print(text)
    write(args.name, {"machine": machine(), "medians": medians, "raw": seen}, text)


if __name__ == "__main__":
    main()

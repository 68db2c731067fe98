"""Wall time of drawing a checkpoint's benchmark inputs in the trusted parent (the "inputs"
stage of a GPU grading draws every benchmark shape twice, on the CPU), with each built-in
`problem.py` against the same file at a baseline revision, interleaved.

    .venv/bin/python benchmarks/inputs_speed.py [--baseline REV] [--rounds 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
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
from grader import checkpoints  # noqa: E402


def problem_at(folder: Path, rev: str | None):  # type: ignore[no-untyped-def]
    rel = (folder / "problem.py").relative_to(ROOT)
    text = (
        (folder / "problem.py").read_text()
        if rev is None
        else subprocess.run(
            ["git", "show", f"{rev}:{rel}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    )
    path = Path(tempfile.mkdtemp()) / "problem.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"problem_{rev}_{folder.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="1ad5161")  # before this work
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    record: dict = {"machine": machine(), "baseline": args.baseline, "checkpoints": {}}  # type: ignore[type-arg]
    lines = []
    for cid, ck in sorted(checkpoints.builtins().items()):
        mods = {
            "baseline": problem_at(ck.folder, args.baseline),
            "current": problem_at(ck.folder, None),
        }
        walls: dict[str, list[float]] = {"baseline": [], "current": []}
        for _ in range(args.rounds):
            for name, mod in mods.items():
                t = time.perf_counter()
                for case in ck.definition.benchmark_shapes:
                    for s in range(2):  # benchmark.SETS
                        drawn = mod.make_inputs(case, torch.Generator().manual_seed(s))
                        del drawn
                walls[name].append(time.perf_counter() - t)
        med = {k: round(statistics.median(v), 2) for k, v in walls.items()}
        record["checkpoints"][cid] = {"walls": walls, "median_s": med}
        lines.append(f"{cid}: benchmark inputs drawn (every shape twice) in {med} s")
        print(lines[-1], flush=True)
    lines.append(f"threads {torch.get_num_threads()}")
    (RESULTS / f"{DATE}-cpu-inputs-speed.json").write_text(json.dumps(record, indent=1))
    (RESULTS / f"{DATE}-cpu-inputs-speed.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

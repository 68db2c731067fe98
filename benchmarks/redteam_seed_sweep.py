"""How often the CPU precheck catches each numerics red-team file, over grading seeds.

    python3 benchmarks/redteam_seed_sweep.py SEEDS [NAME ...]

A file whose error sits near the tolerance (fp16 accumulation, fp16 products) is caught on some
draws of the inputs and not on others; its verdict in one grading is a draw. Prints, per file,
the verdicts over seeds 0..SEEDS-1 (`tests/security/test_redteam_compute.py` grades each with a
fixed seed, so that its verdict is reproducible; this says how representative that seed is).
"""

from __future__ import annotations

import collections
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import checkpoints, grade  # noqa: E402
from grader.options import GradeOptions  # noqa: E402
from grader.sandbox.bwrap import Limits  # noqa: E402

FOLDER = ROOT / "tests" / "fixtures" / "submissions" / "redteam"
NUMERICS = ("fp16", "fp8", "bf16")


def _one(job: tuple[str, int]) -> tuple[str, int, str]:
    name, seed = job
    path = FOLDER / f"{name}.py"
    checkpoint = path.read_text().splitlines()[1].removeprefix("# checkpoint: ").strip()
    options = GradeOptions(device="cpu", seed=seed, limits=Limits(wall_seconds=300))
    return name, seed, grade(path.read_text(), checkpoints.get(checkpoint), options).verdict.value


def main() -> None:
    seeds = int(sys.argv[1])
    names = sys.argv[2:] or sorted(
        p.stem
        for p in FOLDER.glob("*.py")
        if not p.stem.startswith("honest") and any(k in p.stem for k in NUMERICS)
    )
    jobs = [(n, s) for n in names for s in range(seeds)]
    got: dict[str, dict[int, str]] = collections.defaultdict(dict)
    with ProcessPoolExecutor(2) as pool:
        for name, seed, verdict in pool.map(_one, jobs):
            got[name][seed] = verdict
    for name in names:
        counts = collections.Counter(got[name].values())
        by_seed = " ".join(f"{s}:{v}" for s, v in sorted(got[name].items()))
        print(f"{name}: {dict(counts)}  [{by_seed}]", flush=True)


if __name__ == "__main__":
    main()

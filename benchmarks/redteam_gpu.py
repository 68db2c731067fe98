"""Grades on the GPU, correctness only (no benchmark, no Nsight), red-team submissions, one
line each.

With no arguments: the fixtures the CPU grading gets wrong or cannot judge
(tests/security/test_redteam_compute.py's GETS_THROUGH and GPU_ONLY); a name is one of those
fixtures. With paths (`*.py`): red-team files with the `# expect:` header of
tests/security/redteam28/run.py, judged as it judges them on the CPU (a hostile file is a HOLE
when it gets `correct` or the parent fails on it; an honest one unless it gets `correct`).
`--shard I/N` grades every N-th file from the I-th (0-based), for N processes side by side on
one GPU. A hostile file graded `correct` here got through the GPU's cases as well. Run by
benchmarks/redteam_gpu.sh on the device machine."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

from grader import GradeOptions, Limits, checkpoints, grade

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "tests" / "fixtures" / "submissions" / "redteam"
FIXTURES = [
    "attn_fp16_normalized_acc", "attn_fp16_rowsum", "attn_no_running_max",
    "attn_pv_dot_out_fp16", "gemm_fp16_acc_big_block_k", "gemm_split_k_fp16_partials",
    "attn_causal_only_small", "attn_skips_long_seq", "attn_window_1024_long_seq",
    "gemm_drops_k_tail_large_k",
]  # fmt: skip


def _runner():
    """tests/security/redteam28/run.py, for its header reader (one rule for both)."""
    path = ROOT / "tests" / "security" / "redteam28" / "run.py"
    spec = importlib.util.spec_from_file_location("redteam_run", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _targets(args: list[str]) -> list[tuple[Path, str, list[str] | None]]:
    """(file, checkpoint, expected verdicts or None for a fixture)."""
    paths = [a for a in args if a.endswith(".py")]
    if not paths:
        out = []
        for name in [a for a in args if not a.endswith(".py")] or FIXTURES:
            path = DIR / f"{name}.py"
            cid = path.read_text().splitlines()[1].removeprefix("# checkpoint: ").strip()
            out.append((path, cid, None))
        return out
    header = _runner().header
    return [(Path(p), header(Path(p))[1], header(Path(p))[0]) for p in paths]


def main() -> None:
    args = sys.argv[1:]
    shard, of = 0, 1
    if "--shard" in args:
        i = args.index("--shard")
        shard, of = (int(v) for v in args[i + 1].split("/"))
        del args[i : i + 2]
    holes = 0
    targets = _targets(args)[shard::of]
    for path, cid, expect in targets:
        options = GradeOptions(
            device="cuda", benchmark=False, profile=False, limits=Limits(wall_seconds=150)
        )
        t0 = time.monotonic()
        source = path.read_text(encoding="utf-8", errors="surrogateescape")
        try:
            r = grade(source, checkpoints.get(cid), options)
            got, msgs = r.verdict.value, r.messages[:2]
            wrong = [f"{c.name}: {c.message}" for c in r.cases if not c.passed][:3]
        except BaseException as exc:  # a crash of the grader itself is a finding too
            got, msgs, wrong = "CRASH", [f"{type(exc).__name__}: {exc}"[:200]], []
        mark = ""
        if expect is not None:
            honest = "correct" in expect
            ok = got in expect if honest else got not in {"correct", "CRASH", "internal_error"}
            holes += not ok
            mark = "OK   " if ok else "HOLE "
        wall = time.monotonic() - t0
        one = " ".join(" | ".join(msgs).split())[:200]
        print(f"{mark}{path.name} [{cid}] {got} ({wall:.0f} s) {one}", flush=True)
        for line in wrong:
            print(f"    FAIL {line[:200]}", flush=True)
    print(f"# shard {shard}/{of}: {len(targets)} files, {holes} holes", flush=True)


if __name__ == "__main__":
    main()

"""Grades on the GPU, correctness only (no benchmark, no Nsight), the red-team submissions that
the CPU grading gets wrong or cannot judge (tests/security/test_redteam_compute.py's
GETS_THROUGH and GPU_ONLY), one line each. A hostile file graded `correct` here got through the
GPU's cases as well. Run by benchmarks/redteam_gpu.sh on the device machine."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from grader import GradeOptions, Limits, checkpoints, grade

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "tests" / "fixtures" / "submissions" / "redteam"
NAMES = sys.argv[1:] or [
    "attn_fp16_normalized_acc", "attn_fp16_rowsum", "attn_no_running_max",
    "attn_pv_dot_out_fp16", "gemm_fp16_acc_big_block_k", "gemm_split_k_fp16_partials",
    "attn_causal_only_small", "attn_skips_long_seq", "attn_window_1024_long_seq",
    "gemm_drops_k_tail_large_k",
]  # fmt: skip


def main() -> None:
    for name in NAMES:
        path = DIR / f"{name}.py"
        cid = path.read_text().splitlines()[1].removeprefix("# checkpoint: ").strip()
        options = GradeOptions(
            device="cuda", benchmark=False, profile=False, limits=Limits(wall_seconds=150)
        )
        t0 = time.monotonic()
        r = grade(path.read_text(), checkpoints.get(cid), options)
        wrong = [f"{c.name}: {c.message}" for c in r.cases if not c.passed][:3]
        print(f"{name} [{cid}] {r.verdict.value} ({time.monotonic() - t0:.0f} s)", flush=True)
        for line in wrong:
            print(f"    FAIL {line[:200]}", flush=True)


if __name__ == "__main__":
    main()

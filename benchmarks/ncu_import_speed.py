"""How long the grader's `ncu --import` of a submission's `--set full` report takes, against
the same import limited to the metrics the grade reads (`--metrics`), and whether both give
the same kernels and numbers (grader.gpu.nsight.parse_raw_csv). Interleaved, N rounds each.

    python3 benchmarks/ncu_import_speed.py REPORT.ncu-rep [N] [OUT.json]

Needs ncu; run on the GPU machine on a report that a grading saved (report_dir).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.gpu import nsight  # noqa: E402


def run(ncu: str, report: Path, filtered: bool) -> tuple[float, str]:
    argv = [ncu, "--import", str(report), "--csv", "--page", "raw", "--print-units", "base"]
    if filtered:
        argv += ["--metrics", ",".join(nsight.METRICS)]
    t = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    wall = time.monotonic() - t
    if proc.returncode != 0:
        raise SystemExit(
            f"ncu --import failed ({'filtered' if filtered else 'whole'}): "
            f"{proc.stderr.strip()[-400:]}"
        )
    return wall, proc.stdout


def main() -> None:
    report = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ncu = nsight.ncu_path()
    if ncu is None:
        raise SystemExit("ncu is not installed here")
    times: dict[str, list[float]] = {"whole": [], "filtered": []}
    parsed: dict[str, list[dict[str, object]]] = {}
    sizes: dict[str, int] = {}
    for _ in range(rounds):
        for name in times:
            wall, text = run(ncu, report, name == "filtered")
            times[name].append(round(wall, 3))
            sizes[name] = len(text)
            try:
                parsed[name] = [k.model_dump() for k in nsight.parse_raw_csv(text)]
            except nsight.ProfileError as exc:
                parsed[name] = [{"error": str(exc)}]
    record = {
        "report": str(report),
        "report_bytes": report.stat().st_size,
        "seconds": times,
        "median_s": {k: statistics.median(v) for k, v in times.items()},
        "csv_chars": sizes,
        "kernels": {k: len(v) for k, v in parsed.items()},
        "same_numbers": parsed["whole"] == parsed["filtered"],
    }
    print(json.dumps(record, indent=1))
    if len(sys.argv) > 3:
        Path(sys.argv[3]).write_text(json.dumps({**record, "parsed": parsed}, indent=1))


if __name__ == "__main__":
    main()

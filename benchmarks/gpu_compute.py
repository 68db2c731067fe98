"""Issue 23 on a GPU: the tensor-core ceilings per dtype, and the two compute-bound references
graded as a student's would be — c3a-gemm-e3 (against cuBLAS, level 3 for an explained gap)
and c3a-attention (against the naive materialized version, SDPA beside it) — each first
profiled without an explanation, then again with the explanation written from that grading's
citable table (tests/gpu/explain.py), with the benchmark and Nsight. Writes OUT/record.json
after every step (so a timeout keeps what was done) and OUT/record.md at the end.

    python3 benchmarks/gpu_compute.py OUT_DIR [gemm] [attention]     # on a GPU
    python3 benchmarks/gpu_compute.py OUT_DIR --cpu                   # the same path on CPU:
        both references graded under the interpreter (level 2), the record written
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from grader import GradeOptions, GradeResult, checkpoints, grade  # noqa: E402
from grader.gpu import roofline  # noqa: E402
from grader.gpu.calibrate import time_ms  # noqa: E402
from grader.judge.report import render  # noqa: E402
from grader.pipeline import versions  # noqa: E402
from grader.sandbox.bwrap import Limits  # noqa: E402
from tests.gpu.explain import attention_win, gemm_gap  # noqa: E402

EXPLAIN = {"c3a-gemm-e3": gemm_gap, "c3a-attention": attention_win}
# the service's GPU time limit (app/settings.py time_limit_gpu): the attention child compiles
# eight specializations (two dtypes × two head dims × causal or not) before it is timed
GPU_LIMIT = 300.0


def fp32_ffma_tflops(n: int = 8192) -> float:
    """cuBLAS fp32 without TF32 (FFMA): for the record, beside the tensor-core ceilings."""
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    ms = time_ms(lambda: torch.mm(a, b), repeats=5)
    return round(2 * n**3 / (ms * 1e-3) / 1e12, 1)


def run(cid: str, out: Path, device: str, **kw: object) -> tuple[GradeResult, float]:
    t = time.monotonic()
    ck = checkpoints.get(cid)
    limits = Limits(wall_seconds=GPU_LIMIT) if device == "cuda" else Limits()
    options = GradeOptions(
        device=device, limits=limits, cache_dir=out / "cache", report_dir=out / cid, **kw
    )  # type: ignore[arg-type]
    result = grade(ck.reference_solution.read_text(), ck, options)
    wall = round(time.monotonic() - t, 1)
    print(render(result), flush=True)
    print(f"[{cid}: level {result.level}, wall {wall} s]\n", flush=True)
    return result, wall


def grade_twice(cid: str, out: Path, device: str, record: dict) -> None:  # type: ignore[type-arg]
    first, w1 = run(cid, out, device)
    entry: dict = {"first": first.model_dump(mode="json"), "first_wall": w1}  # type: ignore[type-arg]
    record[cid] = entry
    save(out, record)
    if first.citable is None:  # on CPU, or the GPU stage failed: nothing to explain from
        return
    text = EXPLAIN[cid](first)
    second, w2 = run(cid, out, device, explanation=text)
    entry.update(explanation=text, second=second.model_dump(mode="json"), second_wall=w2)
    save(out, record)


def save(out: Path, record: dict) -> None:  # type: ignore[type-arg]
    (out / "record.json").write_text(json.dumps(record, indent=1, default=str))


def summary(record: dict) -> list[str]:  # type: ignore[type-arg]
    lines = [f"# {record['date']}: issue 23 on {record.get('gpu', 'CPU')}", ""]
    if peaks := record.get("ceilings"):
        lines += ["| dtype | tensor-core ceiling, TFLOP/s (cuBLAS 8192³) |", "|---|---|"]
        lines += [f"| {d} | {v} |" for d, v in peaks.items()]
        lines.append("")
    for cid in EXPLAIN:
        if cid not in record:
            continue
        e = record[cid]
        res = GradeResult.model_validate(e.get("second") or e["first"])
        lines.append(f"## {cid}: level {res.level} ({res.verdict.value})")
        lines.append("")
        if res.benchmark:
            lines += ["| shape | TFLOP/s yours | TFLOP/s per baseline | speedups | % of roof |"]
            lines.append("|---|---|---|---|---|")
            for s in res.benchmark.shapes:
                r = s.roofline
                base = ", ".join(f"{k} {v:.0f}" for k, v in (r.tflops if r else {}).items())
                speed = ", ".join(f"{k} {v.median:.2f}×" for k, v in s.speedup.items())
                mine = f"{r.tflops.get('submission', 0):.0f}" if r else "–"
                lines.append(
                    f"| {s.name} | {mine} | {base} | {speed} | {r.pct_of_roof if r else '–'} |"
                )
            lines.append("")
        lines += [f"- {m}" for m in res.messages]
        if e.get("explanation"):
            lines += ["", "Explanation graded:", "", f"> {e['explanation']}"]
        lines.append("")
    return lines


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    args = sys.argv[2:]
    device = "cpu" if "--cpu" in args else "cuda"
    ids = [c for c in EXPLAIN if c.split("-")[1] in args] or list(EXPLAIN)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    record: dict = {"date": stamp, "versions": versions()}  # type: ignore[type-arg]
    if device == "cuda":
        t = time.monotonic()
        record["gpu"] = torch.cuda.get_device_name()
        record["ceilings"] = roofline.ceilings(out / "cache", ["bfloat16", "float16", "float32"])
        record["fp32_ffma_tflops"] = fp32_ffma_tflops()
        record["calibrate_wall"] = round(time.monotonic() - t, 1)
        print("ceilings", record["ceilings"], "fp32 FFMA", record["fp32_ffma_tflops"], flush=True)
        save(out, record)
    for cid in ids:
        try:
            grade_twice(cid, out, device, record)
        except Exception as exc:  # keep what the other checkpoint gives
            record[f"{cid}-error"] = f"{type(exc).__name__}: {exc}"
            save(out, record)
            print(record[f"{cid}-error"], flush=True)
    (out / "record.md").write_text("\n".join(summary(record)) + "\n")
    print("\n".join(summary(record)))


if __name__ == "__main__":
    main()

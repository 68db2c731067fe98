"""Grade the built-in references and the course's lab file on this machine's GPU, and print a
dated record (Markdown) plus the raw results (JSON) for benchmarks/results/.

    python3 benchmarks/gpu_record.py OUT_DIR [refs] [lab] [nsight] [configs] [shapes] [rounds]
                                     [checks] [CHECKPOINT_ID ...]
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from grader import GradeOptions, checkpoints, grade  # noqa: E402
from grader.judge.report import render  # noqa: E402
from grader.models import GradeResult  # noqa: E402
from grader.pipeline import versions  # noqa: E402
from tests.gpu.explain import from_result  # noqa: E402


def run(source: str, cid: str | Path, out: Path, **kw: object) -> tuple[dict, float]:  # type: ignore[type-arg]
    """Grade `source` on checkpoint `cid` (an id, or a checkpoint folder)."""
    t = time.monotonic()
    ck = checkpoints.load(cid) if isinstance(cid, Path) else checkpoints.get(cid)
    options = GradeOptions(device="cuda", cache_dir=out / "cache", report_dir=out / ck.id, **kw)  # type: ignore[arg-type]
    result = grade(source, ck, options)
    wall = time.monotonic() - t
    print(render(result), flush=True)
    print(f"[wall {wall:.1f} s]\n", flush=True)
    return result.model_dump(mode="json"), wall


def pruned_lab() -> str:
    """The course's lab file with its autotune configs pruned to valid ones (up to 20)."""
    folder = checkpoints.get("c3a-softmax").folder
    return (folder / "solutions" / "correct" / "lab_a1_pruned.py").read_text()


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    what = sys.argv[2:] or ["refs", "lab"]
    memory = [c for c, ck in checkpoints.builtins().items() if not ck.compute_bound]
    ids = [w for w in what if w.startswith("c3a-")] or sorted(memory)  # compute: gpu_compute.py
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    record: dict = {"versions": versions(), "date": stamp}  # type: ignore[type-arg]
    if "refs" in what:
        for cid in ids:
            ck = checkpoints.get(cid)
            src = ck.reference_solution.read_text()
            first, w1 = run(src, cid, out)  # profiled: the explanation cites its Nsight figures
            expl = from_result(GradeResult.model_validate(first))
            second, w2 = run(src, cid, out, explanation=expl)
            record[cid] = {
                "first": first,
                "first_wall": w1,
                "second": second,
                "second_wall": w2,
                "explanation": expl,
            }
    if "lab" in what:
        ck = checkpoints.get("c3a-softmax")
        lab = (ck.folder / "solutions" / "wrong" / "lab_a1_autotune.py").read_text()
        record["lab_as_written"], _ = run(lab, "c3a-softmax", out, profile=False)
        pruned = pruned_lab()
        # Five full gradings, Nsight and explanation included, as a student's would be. The
        # first compiles every config (cold Triton cache); the next four find the kept cache.
        spread = []
        expl = None
        for i in range(5):
            r, w = run(pruned, "c3a-softmax", out, explanation=expl)
            if expl is None:
                expl = from_result(GradeResult.model_validate(r))
            spread.append(
                {
                    "geomean": r["benchmark"]["geomean"]["torch"],
                    "wall": w,
                    "cold": i == 0,
                    "shapes": {
                        s["name"]: s["speedup"]["torch"]["median"] for s in r["benchmark"]["shapes"]
                    },
                    "stages": r["stages"],
                    "level": r["level"],
                }
            )
        record["lab_pruned"] = spread
        meds = [s["geomean"]["median"] for s in spread]
        print(
            f"lab pruned geomean speedups: {meds}; spread (max-min)/median = "
            f"{(max(meds) - min(meds)) / statistics.median(meds):.3%}; walls "
            f"{[round(s['wall'], 1) for s in spread]} s"
        )
    if "configs" in what:
        # How grading time grows with the number of autotune configs checked (cold caches).
        pruned = pruned_lab()
        growth = []
        for n in (1, 5, 10, 20):
            fresh = out / f"configs-{n}" / "cache"
            fresh.mkdir(parents=True, exist_ok=True)
            for kept in ("calibration.json", "compile_baselines.json"):  # not what is measured
                if (out / "cache" / kept).exists():
                    (fresh / kept).write_bytes((out / "cache" / kept).read_bytes())
            r, w = run(pruned, "c3a-softmax", out / f"configs-{n}", profile=False, max_configs=n)
            growth.append({"max_configs": n, "wall": w, "stages": r["stages"]})
            print(f"configs checked {n}: {w:.1f} s {r['stages']}", flush=True)
        record["config_growth"] = growth
    if "nsight" in what:
        # A full grading with Nsight of the pruned lab file (it autotunes up to 20 configs):
        # the first also profiles the baselines (kept); then, in turn, the steady state with
        # the replay's child started early (the default), without Nsight, with the replay's
        # child started after the benchmark (nsight_early=False), and early again. The speedups
        # of all must agree: the timed run never runs under `ncu`, and the early replay child
        # only waits beside it.
        pruned = pruned_lab()
        first, w1 = run(pruned, "c3a-softmax", out)
        expl = from_result(GradeResult.model_validate(first))
        plan = [
            ("with Nsight (early replay)", {"explanation": expl}),
            ("without Nsight", {"profile": False}),
            (
                "with Nsight (replay after the benchmark)",
                {"explanation": expl, "nsight_early": False},
            ),
            ("with Nsight (early replay)", {"explanation": expl}),
        ]
        rows = [("with Nsight, cold worker (early replay)", first, w1)]
        for name, kw in plan:
            r, w = run(pruned, "c3a-softmax", out, **kw)
            rows.append((name, r, w))
        record["nsight_full"] = [
            {
                "run": name,
                "wall": w,
                "stages": r["stages"],
                "level": r["level"],
                "profile": r["profile"],
                "geomean": r["benchmark"]["geomean"],
            }
            for name, r, w in rows
        ]
        for name, r, w in rows:
            gm = r["benchmark"]["geomean"]["torch"]["median"]
            print(f"{name}: {w:.1f} s, level {r['level']}, geomean over torch {gm:.4f}", flush=True)
    if "shapes" in what:
        # How grading time grows with the number of benchmark shapes: the softmax checkpoint
        # cut to its first k shapes, after one grading of the whole checkpoint has filled the
        # caches (Triton, torch.compile baseline): the measured cost is the shapes' own.
        ck = checkpoints.get("c3a-softmax")
        text = (ck.folder / "checkpoint.toml").read_text()
        head, *blocks = text.split("[[benchmark_shapes]]")
        grown = []
        run(ck.reference_solution.read_text(), "c3a-softmax", out, profile=False)  # warm caches
        for k in (1, 2, 4):
            folder = out / f"shapes-{k}"
            shutil.copytree(ck.folder, folder, dirs_exist_ok=True)
            kept = "".join("[[benchmark_shapes]]" + b for b in blocks[:k])
            (folder / "checkpoint.toml").write_text(head + kept)
            r, w = run(ck.reference_solution.read_text(), folder, out, profile=False)
            grown.append({"shapes": k, "wall": w, "stages": r["stages"]})
            print(f"benchmark shapes {k}: {w:.1f} s {r['stages']}", flush=True)
        record["shape_growth"] = grown
    if "rounds" in what:
        # The spread of one submission's speedup over repeated gradings, against the number of
        # timed rounds: four gradings of 100 rounds; a grading of R rounds measures exactly the
        # first R of them, so each prefix is what R rounds would have given.
        pruned = pruned_lab()
        gradings = []
        for _ in range(4):
            r, w = run(pruned, "c3a-softmax", out, profile=False, rounds=100)
            gradings.append({s["name"]: s["paired"] for s in r["benchmark"]["shapes"]})
        curve = []
        for n in (6, 10, 20, 30, 50, 100):
            gms = [
                statistics.geometric_mean(statistics.median(p[:n]) for p in g.values())
                for g in gradings
            ]
            spread = (max(gms) - min(gms)) / statistics.median(gms)
            curve.append({"rounds": n, "geomeans": gms, "spread": spread})
            print(f"rounds {n}: spread {spread:.3%} over {len(gms)} gradings", flush=True)
        record["rounds_curve"] = {"gradings": gradings, "curve": curve}
    if "checks" in what:
        # Where the parent checks the outputs: on the CPU as they stream in (the default), or
        # on the GPU once the child has exited (KGRADE_CHECK_ON_GPU). Interleaved, warm; the
        # verdicts and speedups must agree, the times say which is faster.
        pruned = pruned_lab()
        run(pruned, "c3a-softmax", out, profile=False)  # warm caches
        rows = []
        for i in range(6):
            on_gpu = i % 2 == 1
            r, w = run(pruned, "c3a-softmax", out, profile=False, check_on_gpu=on_gpu)
            gm = r["benchmark"]["geomean"]["torch"]["median"]
            rows.append(
                {
                    "check_on_gpu": on_gpu,
                    "wall": w,
                    "stages": r["stages"],
                    "geomean": gm,
                    "verdict": r["verdict"],
                }
            )
            print(f"check_on_gpu={on_gpu}: {w:.1f} s, geomean {gm:.4f}, {r['stages']}", flush=True)
        record["checks"] = rows
    name = "record-" + "-".join(what) + ".json"
    (out / name).write_text(json.dumps(record, indent=1))
    print(torch.cuda.get_device_name(), versions())


if __name__ == "__main__":
    main()

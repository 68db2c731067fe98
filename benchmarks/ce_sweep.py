"""Sweep the reference cross-entropy's launch parameters on this GPU (issue 3: the largest
shape at >= 85 % of copy bandwidth).

python3 benchmarks/ce_sweep.py [OUT.json] [--full]

On the largest benchmark shape (4096 x 128256 bf16): the current `_launch_params` choice, or
with --full every config of (BLOCK, ROWS, num_warps, num_stages), as run on 2026-11-30; the
fastest few are then timed on the other benchmark shapes. On every shape, split-row
candidates: SPLIT programs per row, each an online logsumexp over its own span, combined in the
mean kernel (the reference adopted SPLIT=2 from 65536 columns). Times: triton.testing.do_bench
medians (L2 flushed between calls); GB/s over the minimal bytes (logits + targets), against the
copy bandwidth measured by grader.calibrate in the same process.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from grader import calibrate  # noqa: E402

path = ROOT / "reference_kernels" / "c3a_cross_entropy" / "reference.py"
spec = importlib.util.spec_from_file_location("ref", path)
assert spec and spec.loader
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

FULL = "--full" in sys.argv  # the whole (BLOCK, ROWS, warps, stages) grid, as on 2026-11-30
SHAPES = [
    ((4096, 128256), torch.bfloat16),
    ((8192, 32000), torch.bfloat16),
    ((4096, 32000), torch.float32),
]


def split_runner(x: torch.Tensor, t: torch.Tensor, block: int, split: int, warps: int):
    """The reference's split-row kernels (SPLIT programs per row) with these parameters."""
    n_rows, n_cols = x.shape
    span = triton.cdiv(triton.cdiv(n_cols, split), block) * block
    m = torch.empty(n_rows * split, dtype=torch.float32, device=x.device)
    s = torch.empty_like(m)
    xt = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)

    def call() -> None:
        ref._half_row_kernel[(n_rows, split)](
            x, t, m, s, xt, n_cols, x.stride(0), span, SPLIT=split, BLOCK=block, num_warps=warps
        )
        ref._combine_mean_kernel[(1,)](
            m, s, xt, out, n_rows, SPLIT=split, RB=1024 // split, num_warps=4
        )

    return call, out


def runner(x: torch.Tensor, t: torch.Tensor, block: int, rows: int, warps: int, stages: int):
    n_rows, n_cols = x.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(n_rows, rows),)

    def call() -> None:
        ref._row_loss_kernel[grid](
            x,
            t,
            losses,
            n_rows,
            n_cols,
            x.stride(0),
            ROWS=rows,
            BLOCK=block,
            num_warps=warps,
            num_stages=stages,
        )
        ref._mean_kernel[(1,)](losses, out, n_rows, BLOCK=1024, num_warps=4)

    return call, out


def time_config(x, t, want, cfg) -> float | None:
    call, out = split_runner(x, t, *cfg[1:]) if cfg[0] == "split" else runner(x, t, *cfg)
    try:
        call()
        torch.cuda.synchronize()
    except Exception as exc:  # out of resources for this config: skipped, said
        print("skip", cfg, type(exc).__name__, str(exc)[:80])
        return None
    if not torch.allclose(out, want, rtol=1e-3, atol=1e-3):
        print("WRONG", cfg, float(out), float(want))
        return None
    return triton.testing.do_bench(call, warmup=50, rep=300, return_mode="median") * 1e3


def main() -> None:
    copy_gbps, read_gbps = calibrate.measure()
    print(f"copy {copy_gbps:.0f} GB/s, read {read_gbps:.0f} GB/s")
    record: dict = {"copy_gbps": copy_gbps, "read_gbps": read_gbps, "shapes": {}}
    results: dict[tuple, dict] = {}
    first = True
    top: list[tuple] = []
    for shape, dtype in SHAPES:
        x = torch.randn(shape, device="cuda", dtype=dtype)
        t = torch.randint(0, shape[1], (shape[0],), device="cuda")
        want = torch.nn.functional.cross_entropy(x.float(), t)
        nbytes = x.numel() * x.element_size() + t.numel() * t.element_size()
        current = (*ref._launch_params(shape[1], x.element_size()), None)
        current = (current[0], current[1], current[2], 3)
        if first:
            configs = (
                [
                    (b, r, w, s)
                    for b, r, w, s in itertools.product(
                        (2048, 4096, 8192), (1, 2), (4, 8, 16), (1, 2, 3, 4)
                    )
                    if b * r <= 8192
                ]
                if FULL
                else [current]
            )
        else:
            configs = list(dict.fromkeys([current, *top]))
        rows_out = {}
        splits = [
            ("split", b, sp, w) for b in (2048, 4096, 8192) for sp in (1, 2, 4, 8) for w in (4, 8)
        ]
        for cfg in [*configs, *splits]:
            us = time_config(x, t, want, cfg)
            if us is None:
                continue
            gbps = nbytes / us / 1e3
            rows_out[str(cfg)] = {
                "us": round(us, 2),
                "gbps": round(gbps, 1),
                "pct_copy": round(100 * gbps / copy_gbps, 1),
            }
            what = (
                ("split block split warps", cfg[1:])
                if cfg[0] == "split"
                else ("block rows warps stages", cfg)
            )
            print(
                shape,
                str(dtype)[6:],
                *what,
                f"{us:.1f} us",
                f"{gbps:.0f} GB/s",
                f"{100 * gbps / copy_gbps:.1f} % of copy",
                "(current)" if cfg == current else "",
            )
        if first:  # the grid's three best, timed on the other shapes
            grid = sorted(
                (kv for kv in rows_out.items() if "split" not in kv[0]), key=lambda kv: kv[1]["us"]
            )
            top = [tuple(int(v) for v in k.strip("()").split(", ")) for k, _ in grid[:3]]
        first = False
        results[(shape, dtype)] = rows_out
        best = min(rows_out.items(), key=lambda kv: kv[1]["us"])
        print("BEST", shape, str(dtype)[6:], best, "current", rows_out.get(str(current)))
        record["shapes"][f"{shape} {str(dtype)[6:]}"] = {
            "current": str(current),
            "configs": rows_out,
        }
        del x, t
        torch.cuda.empty_cache()
    if len(sys.argv) > 1 and not sys.argv[1].startswith("--"):
        Path(sys.argv[1]).write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()

"""Sweep the cross-entropy reference's launch parameters on this GPU (issue 3: the largest
shape at >= 85 % of copy bandwidth).

    python3 benchmarks/ce_sweep.py [OUT.json]      (CE_SHAPES=0,2: only those of SHAPES)

Times the reference's entry as shipped (its `_launch_params`), then its row kernel at every
(BLOCK, ROWS, num_warps) of a grid where a thread holds at most 64 logits. Each config is
checked against torch (float64) before it is timed; times are triton.testing.do_bench medians
(L2 flushed between calls); GB/s over the minimal bytes (logits + targets), against the copy
bandwidth grader.gpu.calibrate measures in the same process.

History: until 2026-11-30 (commit b0e1b5c) this swept the earlier kernel (masked loads, a
split-row path for 128k vocabularies, `--full` with num_stages); the lean kernel and its
split-row variant were first timed by benchmarks/ce_lean.py (commit 871b9b7). Their records
are under benchmarks/results/.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import sys
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from grader.gpu import calibrate  # noqa: E402

path = ROOT / "reference_kernels" / "c3a_cross_entropy" / "reference.py"
spec = importlib.util.spec_from_file_location("ref", path)
assert spec and spec.loader
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

SHAPES = [
    ((4096, 128256), torch.bfloat16),
    ((8192, 32000), torch.bfloat16),
    ((4096, 32000), torch.float32),
    ((1000, 50257), torch.bfloat16),  # a tail in every row
]
GRID = [
    (b, r, w)
    for b, r, w in itertools.product((1024, 2048, 4096), (1, 2), (2, 4, 8))
    if b * r // (32 * w) <= 64
]


def shipped(x: torch.Tensor, t: torch.Tensor):
    out = torch.empty((), dtype=torch.float32, device=x.device)

    def call() -> None:
        out.copy_(ref.cross_entropy_triton(x, t))

    return call, out


def rows(x: torch.Tensor, t: torch.Tensor, block: int, n: int, warps: int):
    n_rows, n_cols = x.shape
    losses = torch.empty(n_rows, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)

    def call() -> None:
        ref._row_loss_kernel[(triton.cdiv(n_rows, n),)](
            x, t, losses, n_rows, n_cols, x.stride(0), ROWS=n, BLOCK=block, num_warps=warps
        )
        ref._mean_kernel[(1,)](losses, out, n_rows, BLOCK=1024, num_warps=4)

    return call, out


def main() -> None:
    copy_gbps, read_gbps = calibrate.measure()
    print(f"copy {copy_gbps:.0f} GB/s, read {read_gbps:.0f} GB/s", flush=True)
    record: dict = {"copy_gbps": copy_gbps, "read_gbps": read_gbps, "shapes": {}}
    only = os.environ.get("CE_SHAPES")
    for shape, dtype in [SHAPES[int(i)] for i in only.split(",")] if only else SHAPES:
        x = torch.randn(shape, device="cuda", dtype=dtype) * 3
        t = torch.randint(0, shape[1], (shape[0],), device="cuda")
        want = torch.nn.functional.cross_entropy(x.double(), t).float()
        nbytes = x.numel() * x.element_size() + t.numel() * t.element_size()
        found = {}
        current = ref._launch_params(shape[1])
        for cfg in [("shipped", *current), *GRID]:
            call, out = shipped(x, t) if cfg[0] == "shipped" else rows(x, t, *cfg)
            try:
                call()
                torch.cuda.synchronize()
            except Exception as exc:  # out of resources for this config: skipped, said
                print("skip", cfg, type(exc).__name__, str(exc)[:80])
                continue
            if not torch.allclose(out, want, rtol=1e-4, atol=1e-4):
                print("WRONG", shape, cfg, float(out), float(want), flush=True)
                found[str(cfg)] = {"wrong": [float(out), float(want)]}
                continue
            us = triton.testing.do_bench(call, warmup=50, rep=300, return_mode="median") * 1e3
            gbps = nbytes / us / 1e3
            found[str(cfg)] = {
                "us": round(us, 2),
                "gbps": round(gbps, 1),
                "pct_copy": round(100 * gbps / copy_gbps, 1),
            }
        timed = sorted((kv for kv in found.items() if "us" in kv[1]), key=lambda kv: kv[1]["us"])
        for k, v in timed[:6]:
            print(shape, str(dtype)[6:], "(block, rows, warps)", k, v, flush=True)
        shipped_key = str(("shipped", *current))
        print("SHIPPED", shape, str(dtype)[6:], shipped_key, found.get(shipped_key), flush=True)
        record["shapes"][f"{shape} {str(dtype)[6:]}"] = found
        del x, t
        torch.cuda.empty_cache()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()

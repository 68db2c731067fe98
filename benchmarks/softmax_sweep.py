"""Sweep the reference softmax's launch parameters (rows per program × warps) on this GPU.

python3 benchmarks/softmax_sweep.py
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path

import torch
import triton

path = Path(__file__).resolve().parents[1] / "reference_kernels" / "c3a_softmax" / "reference.py"
spec = importlib.util.spec_from_file_location("ref", path)
assert spec and spec.loader
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

shapes = [
    ((8192, 4096), torch.float32),
    ((4096, 600), torch.float32),
    ((1823, 781), torch.float32),
    ((8192, 4096), torch.bfloat16),
]
print("shape dtype rows warps us  (torch us)")
for shape, dtype in shapes:
    x = torch.randn(shape, device="cuda", dtype=dtype)
    y = torch.empty_like(x)
    t_torch = triton.testing.do_bench(lambda: torch.softmax(x, -1), return_mode="median")  # noqa: B023
    block = triton.next_power_of_2(shape[1])
    best = None
    for rows in (1, 2, 4, 8):
        if rows * block > 32768:
            continue
        for warps in (1, 2, 4, 8, 16):
            grid = (triton.cdiv(shape[0], rows),)
            args = (x, y, shape[0], shape[1], x.stride(0), y.stride(0))
            meta = {"ROWS": rows, "BLOCK": block, "num_warps": warps}
            fn = functools.partial(ref._softmax_kernel[grid], *args, **meta)
            t = triton.testing.do_bench(fn, return_mode="median")
            best = min(best or (t, rows, warps), (t, rows, warps))
            print(shape, str(dtype)[6:], rows, warps, f"{t * 1e3:.1f}", f"({t_torch * 1e3:.1f})")
    print("BEST", shape, str(dtype)[6:], best, file=sys.stderr)

"""Measure the GPU's memory ceilings once and cache them per GPU, driver and torch version.

Runs in the trusted parent. Two ceilings, because a read-mostly kernel can beat a copy: on an
H200 a fused cross-entropy read at 4.46 TB/s against the copy's 4.25 (shared DESIGN figures).
"% of peak" uses the higher of the two.
"""

from __future__ import annotations

import functools
import statistics
import subprocess
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from grader import cachefile


@dataclass(frozen=True)
class Calibration:
    key: str
    copy_gbps: float
    read_gbps: float

    @property
    def peak_gbps(self) -> float:
        return max(self.copy_gbps, self.read_gbps)


@functools.lru_cache(maxsize=1)
def driver_version() -> str:
    """Asked of nvidia-smi once per process: the cache keys of every grading need it, and a
    driver change needs the worker restarted anyway."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        return out.stdout.strip().splitlines()[0] if out.stdout.strip() else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def time_ms(fn: Callable[[], object], repeats: int = 20) -> float:
    """The median of `repeats` timed calls of `fn` (after three untimed), in ms."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def measure(nbytes: int = 1 << 30) -> tuple[float, float]:
    """(copy GB/s counting bytes read and written, read-only GB/s) over `nbytes` buffers."""
    src = torch.rand(nbytes // 4, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = time_ms(lambda: dst.copy_(src))
    read_ms = time_ms(lambda: src.sum())
    return 2 * nbytes / copy_ms / 1e6, nbytes / read_ms / 1e6


def get(cache_dir: Path | None) -> Calibration:
    key = f"{torch.cuda.get_device_name()}|driver {driver_version()}|torch {torch.__version__}"
    cache = cache_dir / "calibration.json" if cache_dir else None
    known = cachefile.load(cache)
    if key in known:
        return Calibration(**known[key])
    copy_gbps, read_gbps = measure()
    torch.cuda.empty_cache()
    cal = Calibration(key, round(copy_gbps, 1), round(read_gbps, 1))
    known[key] = asdict(cal)
    cachefile.store(cache, known)
    return cal

"""GradeOptions from the settings: one place, used by the CLI and the workers alike."""

from __future__ import annotations

import os
from pathlib import Path

from app.settings import Settings
from grader import GradeOptions, Limits, resolve_device


def cache_dir(s: Settings) -> Path:
    """Where the compile check and the calibration keep their caches: the home of a deployment
    (made by `kgrade serve` or a worker), else the user's cache folder, so that grading or
    validating a folder on a laptop never creates a home where it ran."""
    if s.home.is_dir():
        return s.home
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kgrade"


def options(
    s: Settings,
    device: str,
    *,
    explanation: str | None = None,
    report_dir: Path | None = None,
    time_limit: float | None = None,
    unsafe_no_sandbox: bool = False,
    profile: bool | None = None,
) -> GradeOptions:
    device = resolve_device(device)  # "auto" first: a machine without a GPU gets the CPU limit
    cpu = device == "cpu"
    limits = Limits(
        wall_seconds=time_limit or (s.time_limit_cpu if cpu else s.time_limit_gpu),
        memory_bytes=int(s.memory_limit_gib * 2**30),
        max_processes=s.max_processes,
        output_bytes=s.output_limit_kib * 1024,
    )
    if profile is None:
        profile = explanation is not None if s.gpu_profile == "explained" else bool(s.gpu_profile)
    return GradeOptions(
        device=device,
        limits=limits,
        unsafe_no_sandbox=unsafe_no_sandbox,
        explanation=explanation,
        profile=profile,
        check_on_gpu=s.check_on_gpu,
        cache_dir=cache_dir(s),
        report_dir=report_dir,
    )

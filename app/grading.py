"""GradeOptions from the settings: one place, used by the CLI and the workers alike."""

from __future__ import annotations

from pathlib import Path

from app.settings import Settings
from grader import GradeOptions, Limits, resolve_device


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
        cache_dir=s.home,
        report_dir=report_dir,
    )

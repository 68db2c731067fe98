"""How to grade: device, limits, sandbox, seed and the GPU stage's switches."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import bwrap


@dataclass(frozen=True)
class GradeOptions:
    device: str = "auto"  # "cpu" (Triton interpreter), "cuda", or "auto"
    limits: bwrap.Limits = field(default_factory=bwrap.Limits)
    unsafe_no_sandbox: bool = False
    seed: int | None = None  # None: a fresh secret seed per grading
    work_dir: Path | None = None
    max_configs: int = 64
    show_hidden: bool = True
    # GPU stage
    benchmark: bool = True  # time against the baselines (GPU only)
    rounds: int = 50  # timed rounds per benchmark shape (VERIFY of them checked, in the 2nd half)
    profile: bool = True  # Nsight Compute evidence (GPU only, needs ncu)
    # start the Nsight replay's child (under ncu) with the grading's, waiting for its job
    nsight_early: bool = True
    # GPU only: check the outputs on the GPU once the child has exited, instead of on the CPU
    # as they stream in (then the child never waits for the parent while it is timed)
    check_on_gpu: bool = False
    explanation: str | None = None  # the student's explanation, checked for level 3
    cache_dir: Path | None = None  # calibration cache
    report_dir: Path | None = None  # where the .ncu-rep for download is kept

"""What the grader knows about GPU models: a name for queues and leaderboards, L2 size (for
the flush buffer) and the datasheet memory bandwidth (a ceiling; the measured one is
calibrated per machine by `grader.gpu.calibrate`). Nothing may assume one model."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GpuModel:
    id: str
    match: tuple[str, ...]  # lower-case substrings of torch.cuda.get_device_name()
    l2_bytes: int
    dram_gbps: float  # datasheet
    sm: str


MB = 1 << 20
TABLE = [
    GpuModel("rtx5090", ("rtx 5090",), 96 * MB, 1792.0, "sm_120"),
    GpuModel("rtx4090", ("rtx 4090",), 72 * MB, 1008.0, "sm_89"),
    GpuModel("h200", ("h200",), 60 * MB, 4800.0, "sm_90"),
    GpuModel("h100", ("h100",), 50 * MB, 3350.0, "sm_90"),
    GpuModel("a100", ("a100",), 40 * MB, 2039.0, "sm_80"),
    GpuModel("l4", (" l4",), 48 * MB, 300.0, "sm_89"),
    GpuModel("b200", ("b200",), 126 * MB, 8000.0, "sm_100"),
]


def lookup(device_name: str) -> GpuModel | None:
    name = device_name.lower()
    for model in TABLE:
        if any(m in name for m in model.match):
            return model
    return None


def model_id(device_name: str) -> str:
    """A stable id for queues and leaderboards: the table's, else a slug of the name."""
    found = lookup(device_name)
    if found:
        return found.id
    slug = "".join(c if c.isalnum() else "-" for c in device_name.lower()).strip("-")
    return slug.replace("nvidia-", "").replace("geforce-", "") or "unknown"


def l2_bytes(device_name: str, reported: int | None) -> int:
    """The larger of what the driver reports and the table's figure."""
    found = lookup(device_name)
    return max(reported or 0, found.l2_bytes if found else 0, 64 * MB if not reported else 0)

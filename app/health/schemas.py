from __future__ import annotations

from pydantic import BaseModel, Field


class WorkerOut(BaseModel):
    name: str
    queues: list[str]
    gpu: str | None
    can_profile: bool | None = Field(
        None,
        description="A GPU worker: whether its Nsight Compute reads the GPU's counters (level 3 "
        "needs them); null: not a GPU worker, or its check at start has not finished.",
    )
    profiling: str | None = Field(
        None,
        description="What that check found: 'checking', what ncu can do, or why it cannot "
        "profile ('cannot profile: ncu is not installed …', ERR_NVGPUCTRPERM …).",
    )


class HealthOut(BaseModel):
    """What is up: "ok", or why not ("unavailable: …")."""

    database: str
    broker: str
    workers: list[WorkerOut]

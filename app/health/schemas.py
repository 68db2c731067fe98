from __future__ import annotations

from pydantic import BaseModel


class WorkerOut(BaseModel):
    name: str
    queues: list[str]
    gpu: str | None


class HealthOut(BaseModel):
    """What is up: "ok", or why not ("unavailable: …")."""

    database: str
    broker: str
    workers: list[WorkerOut]

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class SubmissionIn(BaseModel):
    checkpoint: str = Field(min_length=1, max_length=100)
    source: str
    explanation: str | None = None


class SubmissionOut(BaseModel):
    id: int
    user: str
    checkpoint: str
    status: str
    stage: str
    attempts: int
    created_at: datetime
    finished_at: datetime | None
    verdict: str | None
    level: int | None
    speedup: float | None
    gpu_model: str | None
    # The full grade, with the fields of `kgrade grade --json` (present once a stage ended).
    result: dict[str, Any] | None = None


class SubmissionRow(BaseModel):
    """A line of a history: no source, no full result."""

    id: int
    user: str
    checkpoint: str
    status: str
    stage: str
    created_at: datetime
    verdict: str | None
    level: int | None
    speedup: float | None
    gpu_model: str | None

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
    late: bool = False  # admitted after the checkpoint's due time
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
    late: bool = False
    verdict: str | None
    level: int | None
    speedup: float | None
    gpu_model: str | None


class OverrideIn(BaseModel):
    level: int = Field(ge=0, le=4)
    note: str = Field(min_length=1, max_length=2000)


class EvidenceIn(BaseModel):
    url: str = Field(min_length=8, max_length=500)


class DecisionIn(BaseModel):
    approve: bool
    note: str = ""


class OverrideRecordOut(BaseModel):
    """One change of a level, kept forever."""

    old_level: int | None
    new_level: int
    note: str
    by: str
    at: str  # ISO 8601


class OverrideOut(BaseModel):
    id: int
    level: int | None
    overrides: list[OverrideRecordOut]


class EvidenceOut(BaseModel):
    id: int
    status: str
    url: str


class DecisionOut(BaseModel):
    id: int
    status: str

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from app.core.limits import MAX_EXPLANATION_BYTES, MAX_NOTE, MAX_SOURCE_BYTES, MAX_URL


class SubmissionIn(BaseModel):
    checkpoint: str = Field(min_length=1, max_length=100)
    # The caps are on UTF-8 bytes, checked by the service (413 above them); the schema's
    # maxLength states them (a text over that many characters is over that many bytes).
    source: str = Field(
        description="the Triton file: at most 256 KiB of UTF-8 (413 above)",
        json_schema_extra={"maxLength": MAX_SOURCE_BYTES},
    )
    explanation: (
        Annotated[str, Field(json_schema_extra={"maxLength": MAX_EXPLANATION_BYTES})] | None
    ) = Field(
        None,
        description="why the kernel is fast (Markdown), checked for level 3: at most 64 KiB of "
        "UTF-8 (413 above)",
    )


class OverrideRecordOut(BaseModel):
    """One change of a level, kept forever."""

    old_level: int | None
    new_level: int
    note: str
    by: str
    at: str  # ISO 8601
    carried: bool = Field(
        False, description="carried by a regrade from the submission's earlier result"
    )
    explanation: Literal["accepted", "refused"] | None = Field(
        None,
        description="an instructor's word on the explanation, apart from the kernel: the "
        "level is then worked out from the grading's measurements and that word",
    )


class SubmissionRow(BaseModel):
    """A line of a history: no source, no full result."""

    id: int
    user: str
    checkpoint: str
    status: str
    stage: str
    created_at: datetime
    late: bool = Field(False, description="admitted after the checkpoint's due time")
    verdict: str | None
    level: int | None = Field(description="the level in force: an override's, else the grade's")
    graded_level: int | None = Field(description="the level the grader gave this result")
    override: OverrideRecordOut | None = Field(
        description="the instructor's override of this result in force (who, when, why)"
    )
    speedup: float | None
    gpu_model: str | None
    checkpoint_version: str | None = Field(
        description="the checkpoint version (content hash) that graded the current result"
    )
    regrade: int | None = Field(description="the regrade it is queued for, if any")


class SubmissionOut(SubmissionRow):
    attempts: int
    finished_at: datetime | None
    # The full grade, with the fields of `kgrade grade --json` (present once a stage ended);
    # its own `level` is the grader's (graded_level).
    result: dict[str, Any] | None = None
    results: int = Field(description="how many results it has had (GET …/results)")


class ResultOut(BaseModel):
    """One grading of a submission, kept: its first and each regrade."""

    id: int
    current: bool
    created_at: datetime
    checkpoint_version: str | None = Field(description="null: graded before versions")
    regrade: int | None
    verdict: str | None
    graded_level: int | None
    level: int | None = Field(description="in force on it: its latest override's, else graded")
    overrides: list[OverrideRecordOut] = Field(description="the overrides made on it")
    speedup: float | None
    gpu_model: str | None
    result: dict[str, Any] | None


class OverrideIn(BaseModel):
    level: int = Field(ge=0, le=4)
    note: str = Field(min_length=1, max_length=MAX_NOTE)


class ExplanationDecisionIn(BaseModel):
    accept: bool
    note: str = Field(min_length=1, max_length=MAX_NOTE)


class EvidenceIn(BaseModel):
    url: str = Field(min_length=8, max_length=MAX_URL)


class DecisionIn(BaseModel):
    approve: bool
    note: str = Field("", max_length=MAX_NOTE)


class OverrideOut(BaseModel):
    id: int
    level: int | None
    overrides: list[OverrideRecordOut]


class ExplanationDecisionOut(OverrideOut):
    reasons: list[str] = Field(
        description="what still stands against level 3 after the decision (empty: level 3)"
    )


class EvidenceOut(BaseModel):
    id: int
    status: str
    url: str


class DecisionOut(BaseModel):
    id: int
    status: str

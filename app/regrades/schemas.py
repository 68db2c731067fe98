from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class RegradeIn(BaseModel):
    """A submission; or a checkpoint, all of it or one student's."""

    checkpoint: str | None = Field(None, min_length=1, max_length=100, pattern=r"^[^\x00]*$")
    student: str | None = Field(None, min_length=1, max_length=100, pattern=r"^[^\x00]*$")
    submission: int | None = Field(None, ge=1, le=2**31 - 1)
    force: bool = Field(False, description="regrade even what the installed version already graded")
    clear_overrides: bool = Field(
        False, description="the new results start without the overrides (kept by default)"
    )


class RegradeOut(BaseModel):
    id: int
    checkpoint: str
    scope: str = Field(description="submission, student or checkpoint")
    target: str | None = Field(description="the submission's id or the student's name")
    version: str = Field(description="the checkpoint version it grades with")
    carry_overrides: bool = Field(description="overrides carried to the new results")
    by: str
    created_at: datetime
    total: int = Field(description="the submissions it regrades")
    done: int = Field(description="those with a result of it so far")
    status: str = Field(description="running or done")
    url: str

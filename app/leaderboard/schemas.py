from __future__ import annotations

from pydantic import BaseModel, Field


class OverrideShown(BaseModel):
    """An instructor's override of a result: who, when, why."""

    old_level: int | None
    new_level: int
    note: str
    by: str
    at: str  # ISO 8601
    carried: bool = False  # carried by a regrade from the submission's earlier result
    explanation: str | None = None  # a word on the explanation: "accepted" or "refused"


class EntryOut(BaseModel):
    rank: int
    student: str
    section: str | None = Field(default=None, description="the student's section")
    gpu_model: str
    level: int = Field(description="the level in force: an override's, else the grade's")
    speedup: float | None
    submission_id: int
    submissions: int
    late: bool = Field(default=False, description="this best submission was late")
    graded_level: int | None = Field(default=None, description="the grader's level of it")
    override: OverrideShown | None = Field(default=None, description="the override in force")


class LeaderboardOut(BaseModel):
    checkpoint: str
    # "exclude": each student's best on-time result; "include": late ones count too
    late: str = "exclude"
    # one board per GPU model ("cpu": graded without one), best first
    boards: dict[str, list[EntryOut]]

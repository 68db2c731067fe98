from __future__ import annotations

from pydantic import BaseModel


class EntryOut(BaseModel):
    rank: int
    student: str
    gpu_model: str
    level: int
    speedup: float | None
    submission_id: int
    submissions: int


class LeaderboardOut(BaseModel):
    checkpoint: str
    # "exclude": each student's best on-time result; "include": late ones count too
    late: str = "exclude"
    # one board per GPU model ("cpu": graded without one), best first
    boards: dict[str, list[EntryOut]]

"""The similarity report as the API answers it (`GET /api/similarity/{checkpoint}`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SideOut(BaseModel):
    student: str
    submission_id: int
    # its fingerprints once the starter's and the common ones are dropped
    fingerprints: int
    # how many of its normalized symbols the shared fingerprints cover
    covered: int


class RegionOut(BaseModel):
    """The same code at lines a_lines of the first submission and b_lines of the second
    (1-based, inclusive), with those lines' text."""

    a_lines: tuple[int, int]
    b_lines: tuple[int, int]
    fingerprints: int
    a_text: str
    b_text: str


class PairOut(BaseModel):
    a: SideOut
    b: SideOut
    shared: int
    score: float = Field(description="shared fingerprints over the smaller side's")
    jaccard: float = Field(description="shared fingerprints over the union")
    regions: list[RegionOut]


class SkippedOut(BaseModel):
    student: str
    submission_id: int
    reason: str


class SummaryRowOut(BaseModel):
    """One line of the summary: a pair of students, their most alike submissions, its score;
    whether it reaches the threshold (and so has its card in `pairs`)."""

    rank: int
    a: str = Field(description="the first student's name")
    a_submission: int
    b: str
    b_submission: int
    score: float
    jaccard: float
    shared: int
    regions: int
    above_threshold: bool


class SimilarityOut(BaseModel):
    """Pairs of students whose most alike submissions score at or above `threshold`, best
    first, and the summary: the highest-scoring pairs down to `summary_floor`, at most 50,
    those below the threshold too. The starter and the handouts are subtracted from both. A
    pair is a reason to look, not a verdict (docs/SIMILARITY.md)."""

    checkpoint: str
    threshold: float
    min_symbols: int
    students: int
    submissions: int
    common_fingerprints: int
    pairs: list[PairOut]
    skipped: list[SkippedOut]
    summary_floor: float
    summary: list[SummaryRowOut]


class HandoutIn(BaseModel):
    text: str = Field(max_length=256 * 1024, description="the handout's source (Python)")


class HandoutsOut(BaseModel):
    checkpoint: str
    handouts: list[str] = Field(description="the names registered, subtracted like the starter")

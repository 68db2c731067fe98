"""The grading events /metrics counts (app/models.py `GradingEvent`), added to the session of
the transaction that made them happen: an event is committed with its cause or not at all."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.models import GradingEvent
from grader import GradeResult

GRADED, RETRY, LEASE_EXPIRED, MESSAGE_LOST, GAVE_UP = (
    "graded",
    "retry",
    "lease_expired",
    "message_lost",
    "gave_up",
)
KINDS = (GRADED, RETRY, LEASE_EXPIRED, MESSAGE_LOST, GAVE_UP)


def record(session: Session, submission_id: int, stage: str, kind: str) -> None:
    session.add(GradingEvent(submission_id=submission_id, stage=stage, kind=kind))


def graded(session: Session, submission_id: int, stage: str, result: GradeResult) -> None:
    """A stage's result stored: its verdict, and the grader's own time for it (`stages` total,
    from the trusted parent's clock; none for a result the grader did not time)."""
    seconds = result.stages.get("total")
    session.add(
        GradingEvent(
            submission_id=submission_id,
            stage=stage,
            kind=GRADED,
            verdict=result.verdict.value,
            seconds=seconds,
        )
    )

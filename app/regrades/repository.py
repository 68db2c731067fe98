"""The regrades table's queries, and the submissions a regrade takes."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import GradingResult, Regrade, Status, Submission, User


def add(session: Session, row: Regrade) -> Regrade:
    session.add(row)
    session.flush()
    return row


def get(session: Session, regrade_id: int) -> Regrade | None:
    return session.get(Regrade, regrade_id)


def of_checkpoint(session: Session, checkpoint: str | None, limit: int) -> list[Regrade]:
    """Newest first; all checkpoints' with None."""
    q = select(Regrade).order_by(Regrade.id.desc()).limit(limit)
    if checkpoint:
        q = q.where(Regrade.checkpoint == checkpoint)
    return list(session.scalars(q).all())


def graded(
    session: Session, checkpoint: str, user_id: int | None, submission_id: int | None
) -> list[Submission]:
    """The graded submissions of a checkpoint (of one student, or one), oldest first; those
    queued or running are left out (they will be graded by the current version anyway)."""
    q = select(Submission).where(
        Submission.checkpoint == checkpoint, Submission.status == Status.DONE
    )
    if user_id is not None:
        q = q.where(Submission.user_id == user_id)
    if submission_id is not None:
        q = q.where(Submission.id == submission_id)
    return list(session.scalars(q.order_by(Submission.id)).all())


def done_counts(session: Session, ids: list[int]) -> dict[int, int]:
    """Per regrade, how many of its submissions have a result of it."""
    if not ids:
        return {}
    rows = session.execute(
        select(GradingResult.regrade_id, func.count(func.distinct(GradingResult.submission_id)))
        .where(GradingResult.regrade_id.in_(ids))
        .group_by(GradingResult.regrade_id)
    )
    return {rid: n for rid, n in rows if rid is not None}


def names(session: Session, user_ids: list[int]) -> dict[int, str]:
    rows = session.execute(select(User.id, User.name).where(User.id.in_(user_ids)))
    return {uid: name for uid, name in rows}


def members(session: Session, regrade_id: int) -> list[tuple[Submission, str]]:
    """The submissions of a regrade (those still queued for it and those with a result of
    it), oldest first, each with its student's name."""
    graded = select(GradingResult.submission_id).where(GradingResult.regrade_id == regrade_id)
    rows = session.execute(
        select(Submission, User.name)
        .join(User, User.id == Submission.user_id)
        .where((Submission.regrade_id == regrade_id) | Submission.id.in_(graded))
        .order_by(Submission.id)
    ).all()
    return [(sub, name) for sub, name in rows]

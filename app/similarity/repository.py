"""The similarity report's one query: every submission's source to a checkpoint, with its
student's name."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Submission, User


def sources(session: Session, checkpoint: str) -> list[tuple[int, str, str]]:
    """(submission id, student name, source) of every submission to `checkpoint`, by id."""
    rows = session.execute(
        select(Submission.id, User.name, Submission.source)
        .join(User, User.id == Submission.user_id)
        .where(Submission.checkpoint == checkpoint)
        .order_by(Submission.id)
    ).all()
    return [(sid, name, source) for sid, name, source in rows]

"""The deadlines' queries: an instructor's deadline per checkpoint, and the late marks."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, false, update
from sqlalchemy.orm import Session

from app.models import CheckpointDeadline, Submission


def get(session: Session, checkpoint: str) -> CheckpointDeadline | None:
    return session.get(CheckpointDeadline, checkpoint)


def put(session: Session, row: CheckpointDeadline) -> CheckpointDeadline:
    merged = session.merge(row)
    session.flush()
    return merged


def remove(session: Session, checkpoint: str) -> bool:
    gone = session.execute(
        delete(CheckpointDeadline).where(CheckpointDeadline.checkpoint == checkpoint)
    )
    session.flush()
    return bool(getattr(gone, "rowcount", 0))


def mark_late(session: Session, checkpoint: str, due: datetime | None) -> None:
    """Every submission to `checkpoint` marked late iff it was admitted after `due` (none:
    none is late). The standings' triggers follow in the same transaction."""
    q = update(Submission).where(Submission.checkpoint == checkpoint)
    if due is None:
        session.execute(q.where(Submission.late).values(late=false()))
    else:
        session.execute(
            q.where(Submission.late != (Submission.created_at > due)).values(
                late=Submission.created_at > due
            )
        )
    session.flush()

"""Leases on rows that a worker takes (submissions, checkpoint validations): a compare-and-set
claim that bumps the attempt number, a lease renewed by a heartbeat, writes only while held,
and the rows whose worker died or whose message was lost, for the reconciler."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from app.models import CheckpointValidation, Status, Submission, now
from app.settings import Settings

Leased = type[Submission] | type[CheckpointValidation]


@dataclass(frozen=True)
class Hold:
    row_id: int
    worker: str
    attempt: int


def claim(
    session: Session, model: Leased, row_id: int, worker: str, s: Settings, *where: Any
) -> Hold | None:
    """Take the row if it is queued (and `where` holds), or if its lease expired."""
    t = now()
    row = session.execute(
        update(model)
        .where(
            model.id == row_id,
            model.attempts < s.max_attempts,
            or_(
                model.status == Status.QUEUED,
                and_(model.status == Status.RUNNING, model.lease_expires_at < t),
            ),
            *where,
        )
        .values(
            status=Status.RUNNING,
            attempts=model.attempts + 1,
            claimed_by=worker,
            lease_expires_at=t + timedelta(seconds=s.lease_seconds),
        )
        .returning(model.attempts)
    ).first()
    return Hold(row_id, worker, row[0]) if row else None


def held(model: Leased, h: Hold) -> list[Any]:
    """The conditions under which the holder may still write the row."""
    return [
        model.id == h.row_id,
        model.claimed_by == h.worker,
        model.attempts == h.attempt,
        model.status == Status.RUNNING,
    ]


def write(session: Session, model: Leased, h: Hold, **values: Any) -> bool:
    """Set `values` on the row if it is still held; False if the lease was lost."""
    res = session.execute(update(model).where(*held(model, h)).values(**values))
    return res.rowcount == 1  # type: ignore[attr-defined]


def renew(session: Session, model: Leased, h: Hold, s: Settings) -> bool:
    return write(session, model, h, lease_expires_at=now() + timedelta(seconds=s.lease_seconds))


def stale(session: Session, model: Leased, s: Settings) -> list[Any]:
    """Rows to send again: running with an expired lease (worker died), or queued for longer
    than a lease (message lost); locked, skipping those another reconciler holds."""
    t = now()
    return list(
        session.scalars(
            select(model)
            .where(
                or_(
                    and_(model.status == Status.RUNNING, model.lease_expires_at < t),
                    and_(
                        model.status == Status.QUEUED,
                        model.enqueued_at < t - timedelta(seconds=s.lease_seconds),
                    ),
                )
            )
            .with_for_update(skip_locked=True)
        ).all()
    )


def requeue(row: Submission | CheckpointValidation, t: datetime) -> None:
    """Back to queued, so that the next pass waits a whole lease before sending it again."""
    row.status, row.claimed_by, row.lease_expires_at, row.enqueued_at = Status.QUEUED, None, None, t

"""The workers table: each worker process reports itself every few seconds."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from app.models import WorkerSeen, now


def ping(session: Session) -> None:
    session.execute(text("SELECT 1"))


def seen_since(session: Session, since: datetime) -> list[WorkerSeen]:
    return list(session.scalars(select(WorkerSeen).where(WorkerSeen.last_seen > since)).all())


def report(
    session: Session,
    name: str,
    queues: str,
    gpu: str | None,
    can_profile: bool | None = None,
    profiling: str | None = None,
) -> None:
    row = session.get(WorkerSeen, name) or WorkerSeen(name=name)
    row.queues, row.gpu, row.last_seen = queues, gpu, now()
    row.can_profile, row.profiling = can_profile, profiling
    session.add(row)


def forget(session: Session, name: str) -> None:
    row = session.get(WorkerSeen, name)
    if row is not None:
        session.delete(row)

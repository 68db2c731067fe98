"""The aggregates /metrics reports, one query each, from grading_events, submissions and
workers; and the queue lengths of the embedded (SQLite) broker."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session

from app.models import GradingEvent, Submission, WorkerSeen


def event_counts(session: Session) -> list[tuple[str, str, str | None, int]]:
    """(kind, stage, verdict, count) of every grading event."""
    e = GradingEvent
    rows = session.execute(
        select(e.kind, e.stage, e.verdict, func.count()).group_by(e.kind, e.stage, e.verdict)
    ).all()
    return [(kind, stage, verdict, n) for kind, stage, verdict, n in rows]


def durations(
    session: Session, bounds: tuple[float, ...]
) -> list[tuple[str, list[int], int, float]]:
    """Per stage, of its graded events with a time: the count at or under each bound
    (cumulative, as Prometheus buckets are), the count and the sum."""
    e = GradingEvent
    timed = e.seconds.is_not(None)
    columns = [func.count().filter(timed, e.seconds <= b) for b in bounds]
    rows = session.execute(
        select(e.stage, func.count().filter(timed), func.sum(e.seconds), *columns)
        .where(e.kind == "graded")
        .group_by(e.stage)
    ).all()
    return [(r[0], [int(x) for x in r[3:]], int(r[1]), float(r[2] or 0.0)) for r in rows]


def submissions_by_state(session: Session) -> list[tuple[str, str, int]]:
    s = Submission
    rows = session.execute(select(s.status, s.stage, func.count()).group_by(s.status, s.stage))
    return [(status, stage, n) for status, stage, n in rows]


def workers_since(session: Session, since: datetime) -> list[tuple[str, str | None]]:
    """(queues, gpu) of each worker seen since `since`."""
    rows = session.execute(
        select(WorkerSeen.queues, WorkerSeen.gpu).where(WorkerSeen.last_seen > since)
    )
    return [(queues, gpu) for queues, gpu in rows]


def embedded_queue_lengths(broker_db_url: str) -> dict[str, int]:
    """Messages waiting per queue in kombu's SQLAlchemy transport (the embedded broker's
    SQLite file): its tables `kombu_queue` and `kombu_message` (visible: not yet taken)."""
    engine = create_engine(broker_db_url)
    try:
        with engine.connect() as conn:
            names = {
                r[0]
                for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))
            }
            if not {"kombu_queue", "kombu_message"} <= names:
                return {}
            rows = conn.execute(
                text(
                    "SELECT q.name, COUNT(m.id) FROM kombu_queue q LEFT JOIN kombu_message m "
                    "ON m.queue_id = q.id AND m.visible GROUP BY q.name"
                )
            )
            return {name: int(n) for name, n in rows}
    finally:
        engine.dispose()

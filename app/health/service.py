"""What /api/health says: the database answers, the broker answers, the workers seen in the
last minute and their queues. Workers report themselves here (worker/tasks.py), so that it
works the same with Redis and with the embedded broker."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.orm import Session

from app.db import sessions
from app.health import repository
from app.jobs.celery_app import broker_reachable
from app.models import now

SEEN_WITHIN = timedelta(seconds=60)


@dataclass(frozen=True)
class Worker:
    name: str
    queues: list[str]
    gpu: str | None


@dataclass
class Health:
    database: str = "ok"
    broker: str = "ok"
    workers: list[Worker] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.database == "ok" and self.broker == "ok"


def check() -> Health:
    """Each part asked on its own: a database that is down does not hide the broker's state."""
    health = Health()
    try:
        with sessions()() as session:
            repository.ping(session)
            health.workers = [
                Worker(w.name, w.queues.split(","), w.gpu)
                for w in repository.seen_since(session, now() - SEEN_WITHIN)
            ]
    except Exception as exc:
        health.database = f"unavailable: {type(exc).__name__}"
    if not broker_reachable():
        health.broker = "unavailable"
    return health


def report_seen(session: Session, worker: str, queues: str, gpu: str | None) -> None:
    """A worker process says it is alive and which queues it serves."""
    repository.report(session, worker, queues, gpu)


def forget_worker(session: Session, worker: str) -> None:
    repository.forget(session, worker)

"""What /api/health says: the database answers, the broker answers, the workers seen in the
last minute, their queues and, for a GPU worker, whether it can profile (its ncu reads the
counters). Workers report themselves here (worker/tasks.py), so that it works the same with
Redis and with the embedded broker."""

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
    can_profile: bool | None = None  # GPU workers: ncu reads the counters (level 3 needs it)
    profiling: str | None = None  # what its check found, or why it cannot profile

    @property
    def serves_gpu(self) -> bool:
        return any(q.startswith("gpu.") for q in self.queues)


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
            health.workers = seen(session)
    except Exception as exc:
        health.database = f"unavailable: {type(exc).__name__}"
    if not broker_reachable():
        health.broker = "unavailable"
    return health


def seen(session: Session) -> list[Worker]:
    """The workers seen in the last minute, by name."""
    rows = repository.seen_since(session, now() - SEEN_WITHIN)
    return [
        Worker(w.name, w.queues.split(","), w.gpu, w.can_profile, w.profiling)
        for w in sorted(rows, key=lambda w: w.name)
    ]


def gpu_workers(session: Session) -> list[Worker]:
    """For the admin page: each GPU worker seen lately, and whether it can profile."""
    return [w for w in seen(session) if w.serves_gpu]


def report_seen(
    session: Session,
    worker: str,
    queues: str,
    gpu: str | None,
    can_profile: bool | None = None,
    profiling: str | None = None,
) -> None:
    """A worker process says it is alive, which queues it serves and (a GPU worker, once its
    check has run) whether its ncu can read the GPU's counters."""
    repository.report(session, worker, queues, gpu, can_profile, profiling)


def forget_worker(session: Session, worker: str) -> None:
    repository.forget(session, worker)

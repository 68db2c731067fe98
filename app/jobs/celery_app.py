"""The Celery application: broker from the settings (Redis, else an embedded SQLite-backed
broker) and the reliability settings DESIGN.md asks for. Built on first use, not at import:
importing the domain opens no connection and does not load Celery (the API builds it at its
start, before its first request)."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING

import redis

from app.jobs.names import PRECHECK, RECONCILE, TASK_RECONCILE
from app.settings import get_settings

if TYPE_CHECKING:
    from celery import Celery


def configure(app: Celery) -> None:
    """(Re)apply the settings: at start-up, and in tests after they change the environment."""
    s = get_settings()
    app.conf.broker_url = s.broker_url
    app.conf.update(
        task_acks_late=True,  # a task is acknowledged when it ends, not when it starts
        task_reject_on_worker_lost=True,  # a worker killed mid-task hands the task back
        worker_prefetch_multiplier=1,  # one grading at a time per process
        task_ignore_result=True,  # results live in the database
        task_time_limit=s.hard_time_limit,
        task_soft_time_limit=s.hard_time_limit - 30,
        # Redis redelivers a message not acknowledged within this: above the hard time limit,
        # or a long grading would be handed to a second worker while the first still runs.
        # (The embedded SQLite broker has no such timer: the reconciler's leases cover it.)
        broker_transport_options=(
            {"visibility_timeout": int(s.hard_time_limit * 2)} if s.redis_url else {}
        ),
        task_default_queue=PRECHECK,
        broker_connection_retry_on_startup=True,
        beat_schedule={
            "reconcile": {
                "task": TASK_RECONCILE,
                "schedule": s.reconcile_seconds,
                "options": {"queue": RECONCILE},  # not behind the prechecks
            }
        },
    )


_app: Celery | None = None
_building = threading.Lock()


def celery_app() -> Celery:
    """The process's one Celery application, configured from the settings: built once, under
    a lock. (An `lru_cache` is no lock: threads that came in together each imported Celery,
    whose package replaces itself in `sys.modules` while it loads, and some found no `Celery`
    in it, an ImportError, a 500 on the API's first submissions.) The API builds it before it
    serves (app/main.py); a worker at its start."""
    global _app
    if _app is None:
        with _building:
            if _app is None:
                _app = _build()
    return _app


def _build() -> Celery:
    from celery import Celery

    app = Celery("kgrade")
    configure(app)
    _ = app.amqp  # what the first send would import lazily, imported here under the lock
    try:
        with app.connection_for_write() as conn:
            _ = conn.transport  # the transport's module (Redis, SQLAlchemy): no connection yet
    except Exception:  # a broker URL that cannot load: said by the broker check on use
        pass
    return app


def reconfigure() -> None:
    """Apply changed settings to the application (tests, after changing the environment). The
    broker connection and producer pools are dropped too: kept, they would go on sending to
    the broker of the settings before (a test on the embedded broker after one on Redis)."""
    app = celery_app()
    configure(app)
    app._pool = None
    app.amqp._producer_pool = None


@lru_cache(maxsize=4)
def _redis(url: str, timeout: float) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def broker_reachable(timeout: float = 2.0) -> bool:
    """Asked before every admission. On Redis, one PING on a pooled connection, not a new
    broker connection and channel each time (docs/PERFORMANCE.md, section 1)."""
    url = str(celery_app().conf.broker_url)
    try:
        if url.startswith(("redis://", "rediss://")):
            return bool(_redis(url, timeout).ping())
        with celery_app().connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:
        return False

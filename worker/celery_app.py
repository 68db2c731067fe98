"""The Celery application: broker from settings (Redis, else an embedded SQLite-backed broker),
the reliability settings DESIGN.md asks for, and the queue names.

Queues: `precheck` (CPU: static checks and interpreter correctness, any machine) and one per
GPU model, `gpu.<model>`, fed only by submissions that passed the precheck.
"""

from __future__ import annotations

from celery import Celery

from app.settings import get_settings

PRECHECK = "precheck"
TASK_PRECHECK = "kgrade.precheck"
TASK_GPU = "kgrade.gpu_grade"
TASK_RECONCILE = "kgrade.reconcile"


def gpu_queue(model: str) -> str:
    return f"gpu.{model}"


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
                "options": {"queue": PRECHECK},
            }
        },
    )


def make_celery() -> Celery:
    app = Celery("kgrade")
    configure(app)
    return app


celery = make_celery()

"""This host's service: its database brought to the latest schema (Alembic's configuration,
`migrate`) and the command line of a Celery worker. The operator's commands (service_cmd,
users_cmd, workers) import it; it imports no command."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from app.settings import get_settings

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Any:
    """Alembic's configuration for the database at `url`, with kgrade's migrations."""
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def migrate() -> None:
    from alembic import command

    from app.db import private_home

    s = get_settings()
    s.home.mkdir(parents=True, exist_ok=True)
    private_home(s)
    command.upgrade(alembic_config(s.db_url), "head")


def worker_argv(queues: list[str], beat: bool, name: str | None = None) -> list[str]:
    """A Celery worker serving `queues` (one grading at a time); a precheck worker serves the
    reconciler's queue too (app/jobs/names.py)."""
    from app.jobs.names import PRECHECK, RECONCILE

    s = get_settings()
    served = [RECONCILE, *queues] if PRECHECK in queues else queues
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "worker.tasks",
        "worker",
        "-Q",
        ",".join(served),
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
        "-n",
        f"kgrade-{os.getpid()}{'-' + name if name else ''}@%h",  # one name per worker of a host
    ]
    if beat:  # the reconciler's schedule; one per deployment
        argv += ["-B", "-s", str(s.home.resolve() / "celerybeat-schedule")]
    if queues == [PRECHECK] and s.precheck_threads:  # and keeps to a few threads
        n = str(s.precheck_threads)
        argv = ["env", f"OMP_NUM_THREADS={n}", f"MKL_NUM_THREADS={n}", *argv]
    if queues == [PRECHECK] and s.precheck_nice:  # a worker that never holds a GPU yields
        argv = ["nice", "-n", str(s.precheck_nice), *argv]
    return argv

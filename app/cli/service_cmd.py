"""Operator commands: `serve` (API + a worker), `api`, `worker`, `migrate`, `users add`."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from app.cli.common import UsageError
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

    s = get_settings()
    s.home.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(s.db_url), "head")


def cmd_migrate(_: argparse.Namespace) -> int:
    migrate()
    print(f"database at head: {get_settings().db_url.split('@')[-1]}")
    return 0


def cmd_users_add(args: argparse.Namespace) -> int:
    from app.db import transaction
    from app.users import service

    migrate()
    try:
        with transaction() as session:
            user, token = service.add(session, args.name, args.role)
            print(f"created {user.role} '{user.name}' (id {user.id}); their token, shown once:")
    except service.UserError as exc:
        raise UsageError(str(exc)) from exc
    print(token)
    return 0


def worker_argv(queues: list[str], beat: bool) -> list[str]:
    from app.jobs.names import PRECHECK

    s = get_settings()
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "worker.tasks",
        "worker",
        "-Q",
        ",".join(queues),
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
        "-n",
        f"kgrade-{os.getpid()}@%h",
    ]
    if beat:  # the reconciler's schedule; one per deployment
        argv += ["-B", "-s", str(s.home.resolve() / "celerybeat-schedule")]
    if queues == [PRECHECK] and s.precheck_threads:  # and keeps to a few threads
        n = str(s.precheck_threads)
        argv = ["env", f"OMP_NUM_THREADS={n}", f"MKL_NUM_THREADS={n}", *argv]
    if queues == [PRECHECK] and s.precheck_nice:  # a worker that never holds a GPU yields
        argv = ["nice", "-n", str(s.precheck_nice), *argv]
    return argv


def gpu_queue_here() -> str | None:
    import torch

    from app.jobs.names import gpu_queue
    from grader import gpu_model_id

    if not torch.cuda.is_available():
        return None
    return gpu_queue(gpu_model_id(torch.cuda.get_device_name()))


def cmd_worker(args: argparse.Namespace) -> int:
    from app.jobs.names import PRECHECK

    queues = [PRECHECK] if not args.gpu else []
    if args.gpu:
        q = gpu_queue_here()
        if q is None:
            raise UsageError("--gpu: no CUDA GPU is visible to this process")
        queues.append(q)
    migrate()
    argv = worker_argv(queues, beat=args.beat)
    os.execvp(argv[0], argv)


def cmd_api(args: argparse.Namespace) -> int:
    from app.cli import api_cmd

    return api_cmd.cmd_api(args)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.jobs.names import PRECHECK

    s = get_settings()
    migrate()
    queues = [PRECHECK]
    if (q := gpu_queue_here()) is not None and q.removeprefix("gpu.") in s.gpu_models:
        queues.append(q)
    worker = subprocess.Popen(worker_argv(queues, beat=True), cwd=ROOT)
    mode = "embedded (SQLite + SQLite broker in " + str(s.home) + ")" if s.embedded else "external"
    print(
        f"kgrade: serving on http://{s.host}:{s.port} · {mode} · worker on {','.join(queues)}",
        flush=True,
    )
    try:
        uvicorn.run("app.main:app", host=s.host, port=s.port, log_level="info")
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve the API and run a worker (embedded default)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("api", help="serve the API only, in N processes (production)")
    p.add_argument("--host", help="default: KGRADE_HOST")
    p.add_argument("--port", type=int, help="default: KGRADE_PORT")
    p.add_argument("--workers", type=int, help="processes (default: one per CPU core)")
    p.set_defaults(func=cmd_api)
    p = sub.add_parser("worker", help="run a grading worker")
    p.add_argument("--gpu", action="store_true", help="serve this machine's GPU queue")
    p.add_argument("--beat", action="store_true", help="also run the reconciler's schedule")
    p.set_defaults(func=cmd_worker)
    p = sub.add_parser("migrate", help="bring the database to the latest schema")
    p.set_defaults(func=cmd_migrate)
    users = sub.add_parser("users", help="manage users").add_subparsers(
        dest="users_cmd", required=True
    )
    p = users.add_parser("add", help="create a user and print their token (last line)")
    p.add_argument("name")
    p.add_argument("--role", default="student", choices=["student", "instructor", "admin"])
    p.set_defaults(func=cmd_users_add)

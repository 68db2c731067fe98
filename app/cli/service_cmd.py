"""Operator commands: `serve` (API + a worker), `api`, `worker`, `beat`, `migrate`; `users …`
in users_cmd. The database and a worker's command line are host.py's; the GPU workers'
supervision is workers.py's."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from app.cli.common import UsageError
from app.cli.host import ROOT, migrate, worker_argv
from app.settings import get_settings


def cmd_migrate(_: argparse.Namespace) -> int:
    migrate()
    print(f"database at head: {get_settings().db_url.split('@')[-1]}")
    return 0


def gpu_queue_here() -> str | None:
    import torch

    from app.jobs.names import gpu_queue
    from grader import gpu_model_id

    if not torch.cuda.is_available():
        return None
    return gpu_queue(gpu_model_id(torch.cuda.get_device_name()))


def cmd_worker(args: argparse.Namespace) -> int:
    from app.cli import workers
    from app.jobs.names import PRECHECK

    if args.gpu not in (None, "one"):  # one supervised worker per GPU
        if args.beat:
            raise UsageError("--beat runs once per deployment: `kgrade beat`, not per GPU")
        return workers.supervise(workers.select(workers.visible_gpus(), args.gpu), args.grace)
    queues = [PRECHECK] if not args.gpu else []
    if args.gpu:
        q = gpu_queue_here()
        if q is None:
            raise UsageError("--gpu: no CUDA GPU is visible to this process")
        queues.append(q)
    workers.prepare_database()
    argv = worker_argv(queues, beat=args.beat)
    os.execvp(argv[0], argv)


def cmd_api(args: argparse.Namespace) -> int:
    from app.cli import api_cmd

    return api_cmd.cmd_api(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from app.cli.supervise import Program, Supervisor
    from app.jobs.names import PRECHECK

    s = get_settings()
    migrate()
    queues = [PRECHECK]
    if (q := gpu_queue_here()) is not None and q.removeprefix("gpu.") in s.gpu_models:
        queues.append(q)
    api = [sys.executable, "-m", "app.cli", "api", "--workers", "1"]
    programs = [
        Program("api", api, cwd=ROOT),
        Program("worker", worker_argv(queues, beat=True), cwd=ROOT),
    ]
    mode = "embedded (SQLite + SQLite broker in " + str(s.home) + ")" if s.embedded else "external"
    print(
        f"kgrade: serving on http://{s.host}:{s.port} · {mode} · worker on {','.join(queues)}",
        flush=True,
    )
    # The API and the worker are restarted when they die; Ctrl-C stops both and all they started.
    return Supervisor(programs).run()


def add_parsers(sub: Any) -> None:
    from app.cli import users_cmd, workers

    p = sub.add_parser("serve", help="serve the API and run a worker (embedded default)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("api", help="serve the API only, in N processes (production)")
    p.add_argument("--host", help="default: KGRADE_HOST")
    p.add_argument("--port", type=int, help="default: KGRADE_PORT")
    p.add_argument("--workers", type=int, help="processes (default: one per CPU core)")
    p.set_defaults(func=cmd_api)
    p = sub.add_parser("worker", help="run a grading worker (the CPU precheck, or --gpu)")
    p.add_argument(
        "--gpu",
        nargs="?",
        const="one",
        metavar="all|N,…",
        help="alone: serve this machine's GPU queue; `all` (or indices such as 0,2): one "
        "worker per GPU, each pinned to its own and restarted when it dies",
    )
    p.add_argument("--beat", action="store_true", help="also run the reconciler's schedule")
    p.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help="--gpu all: seconds a worker may finish its grading when stopped (default 30)",
    )
    p.set_defaults(func=cmd_worker)
    p = sub.add_parser("beat", help="run the reconciler's schedule alone (one per deployment)")
    p.set_defaults(func=lambda _: workers.cmd_beat())
    p = sub.add_parser("migrate", help="bring the database to the latest schema")
    p.set_defaults(func=cmd_migrate)
    users_cmd.add_parsers(sub)

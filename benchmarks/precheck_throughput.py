"""CPU precheck: one grading per built-in checkpoint, and one vs two Celery workers draining a
backlog.

1. Each built-in checkpoint's reference solution graded on the CPU (Triton interpreter, in the
   sandbox) through the grader API, --repeat times: wall time, CPU time of the grading process
   and of the sandbox it ran (children), and the grader's own stage times.
2. --backlog vector-add submissions admitted through the app's service and sent to the precheck
   queue (real Redis, real PostgreSQL), drained by one worker, then by two (each `kgrade
   worker`'s command line, concurrency 1), started and registered before the backlog is sent:
   drain time and throughput ratio. --rounds repeats the pair (1, 2, 1, 2, …) to show drift.

    .venv/bin/python benchmarks/precheck_throughput.py [--repeat 3] [--backlog 20] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import _common as c
import redis

REDIS_DB = 9


def grade_each(repeat: int) -> list[dict[str, Any]]:
    from grader import GradeOptions, checkpoints, grade

    rows = []
    for folder in checkpoints.builtin_folders():
        cp = checkpoints.load(folder)
        source = (folder / "reference.py").read_text()
        runs = []
        for _ in range(repeat):
            self0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            with c.TreeCPU() as tree:
                result = grade(source, cp, GradeOptions(device="cpu"))
            wall = time.perf_counter() - t0
            self1 = resource.getrusage(resource.RUSAGE_SELF)
            runs.append(
                {
                    "wall_s": wall,
                    "parent_cpu_s": (self1.ru_utime + self1.ru_stime)
                    - (self0.ru_utime + self0.ru_stime)
                    - tree.overhead,
                    "sandbox_cpu_s": tree.seconds,
                    "verdict": result.verdict.value,
                    "level": result.level,
                    "stages": result.stages,
                    "loadavg": c.loadavg(),
                }
            )
        keys = ("wall_s", "parent_cpu_s", "sandbox_cpu_s")
        med = {k: statistics.median(r[k] for r in runs) for k in keys}
        cases = len(cp.definition.interpreter_cases)
        row = {"checkpoint": cp.id, "cases": cases, **med, "runs": runs}
        rows.append(row)
        print(
            f"  {cp.id:<20} wall {med['wall_s']:6.2f} s  CPU: parent {med['parent_cpu_s']:5.2f}"
            f" + sandbox {med['sandbox_cpu_s']:6.2f} s  ({runs[0]['verdict']}, level "
            f"{runs[0]['level']})",
            flush=True,
        )
    return rows


def service_env(db: str, home: Path) -> dict[str, str]:
    return {
        "KGRADE_DATABASE_URL": c.sqlalchemy_url(db),
        "KGRADE_REDIS_URL": f"{c.REDIS_BASE}/{REDIS_DB}",
        "KGRADE_HOME": str(home),
        "KGRADE_SUBMISSIONS_PER_HOUR": "100000",
    }


def drain(n_workers: int, backlog: int, env: dict[str, str]) -> dict[str, Any]:
    """Start n workers, wait until they report, send `backlog` submissions, time the drain."""
    from sqlalchemy import delete, func, select

    from app.cli.service_cmd import worker_argv
    from app.db import sessions, transaction
    from app.models import Status, Submission, User, WorkerSeen
    from app.settings import get_settings
    from app.submissions import service

    with transaction() as s:
        s.execute(delete(WorkerSeen))
    procs = [
        subprocess.Popen(
            worker_argv(["precheck"], beat=False),
            cwd=c.ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(n_workers)
    ]

    def seen() -> int:
        with transaction() as s:
            return int(s.scalar(select(func.count()).select_from(WorkerSeen)) or 0)

    try:
        c.wait_for(lambda: seen() >= n_workers, 120, f"{n_workers} workers")
        source = (c.ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
        with sessions()() as s:
            user = s.scalar(select(User).where(User.name == "bench"))
            assert user is not None
            ids = [
                service.submit(s, user, "c3a-vector-add", source, None, get_settings()).id
                for _ in range(backlog)
            ]
            cpu0 = [c.tree_cpu(p.pid) for p in procs]
            t0 = time.perf_counter()
            s.commit()  # the prechecks are sent now, after the commit

        def left() -> int:
            with transaction() as s:
                q = select(func.count()).where(Submission.id.in_(ids))
                return int(s.scalar(q.where(Submission.status != Status.DONE)) or 0)

        while left():
            time.sleep(0.25)
        wall = time.perf_counter() - t0
        cpu = sum(c.tree_cpu(p.pid) - x for p, x in zip(procs, cpu0, strict=True))
        with transaction() as s:
            verdicts = s.execute(
                select(Submission.verdict, func.count())
                .where(Submission.id.in_(ids))
                .group_by(Submission.verdict)
            ).all()
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
    return {
        "workers": n_workers,
        "backlog": backlog,
        "wall_s": round(wall, 2),
        "per_s": round(backlog / wall, 3),
        "worker_cpu_s": round(cpu, 1),
        "verdicts": {verdict: n for verdict, n in verdicts},
        "loadavg": c.loadavg(),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="gradings per checkpoint")
    ap.add_argument("--backlog", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1, help="(1 worker, 2 workers) pairs")
    ap.add_argument("--skip-grades", action="store_true")
    ap.add_argument("--name", default="precheck-throughput")
    args = ap.parse_args()
    before = c.machine()
    print(f"# {before['uptime']}", flush=True)
    grades = [] if args.skip_grades else grade_each(args.repeat)
    db = f"kgrade_bench_precheck_{os.getpid()}"
    home = Path(tempfile.mkdtemp(prefix="kgrade-bench-precheck-"))
    env = service_env(db, home)
    os.environ.update(env)
    c.create_db(db)
    drains: list[dict[str, Any]] = []
    try:
        from app.cli.service_cmd import migrate
        from app.db import transaction
        from app.jobs.celery_app import reconfigure
        from app.settings import get_settings
        from app.users import service as users

        get_settings.cache_clear()
        reconfigure()
        redis.Redis.from_url(env["KGRADE_REDIS_URL"]).flushdb()
        migrate()
        with transaction() as s:
            users.add(s, "bench", "student")
        for _ in range(args.rounds):
            for n in (1, 2):
                r = drain(n, args.backlog, env)
                drains.append(r)
                print(
                    f"  {n} worker(s): {args.backlog} in {r['wall_s']:.1f} s = "
                    f"{r['per_s']:.3f}/s, worker CPU {r['worker_cpu_s']} s, {r['verdicts']}, "
                    f"load {r['loadavg'][0]:.2f}",
                    flush=True,
                )
    finally:
        redis.Redis.from_url(env["KGRADE_REDIS_URL"]).flushdb()
        from app.db import engine

        engine().dispose()
        c.drop_db(db)
        subprocess.run(["rm", "-rf", str(home)], check=False)
    one = [d["per_s"] for d in drains if d["workers"] == 1]
    two = [d["per_s"] for d in drains if d["workers"] == 2]
    ratio = statistics.median(two) / statistics.median(one) if one and two else float("nan")
    after = c.uptime()
    lines = [
        "CPU precheck: one grading per built-in checkpoint (reference solution, grader API, "
        f"sandbox, median of {args.repeat}); one vs two precheck workers draining "
        f"{args.backlog} vector-add submissions (Redis + PostgreSQL)",
        f"before: {before['uptime']}",
        f"after:  {after}",
        f"machine: {before['cores']} cores, {before['cpu']}, git {before['git']}",
        "",
        f"{'checkpoint':<20} {'cases':>5} {'wall s':>8} {'parent CPU s':>13} {'sandbox CPU s':>14}",
        *(
            f"{g['checkpoint']:<20} {g['cases']:>5} {g['wall_s']:>8.2f} "
            f"{g['parent_cpu_s']:>13.2f} {g['sandbox_cpu_s']:>14.2f}"
            for g in grades
        ),
        "",
        *(
            f"{d['workers']} worker(s): {d['backlog']} drained in {d['wall_s']:.1f} s = "
            f"{d['per_s']:.3f}/s (worker CPU {d['worker_cpu_s']} s; {d['verdicts']}; "
            f"load {d['loadavg'][0]:.2f})"
            for d in drains
        ),
        f"throughput ratio, two workers / one: {ratio:.2f}x (goal >= 1.8x)",
    ]
    print("\n".join(lines[-len(drains) - 1 :]))
    c.write(
        args.name,
        {
            "machine": before,
            "uptime_after": after,
            "args": vars(args),
            "gradings": grades,
            "drains": drains,
            "ratio": ratio,
        },
        "\n".join(lines),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

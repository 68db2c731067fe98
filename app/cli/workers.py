"""What `kgrade worker` starts: the GPUs a host has and one pinned worker for each (`--gpu
all`), the reconciler's schedule alone (`kgrade beat`), and the database check at a worker's
start (migrations run once per deployment, before the workers: `kgrade migrate`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

from app.cli.common import UsageError
from app.cli.host import ROOT
from app.settings import get_settings

# Run in a child, so that the supervisor neither imports torch (~300 MB it would keep for the
# life of the host's workers) nor initialises CUDA before its workers do.
_PROBE = """
import json, torch
gpus = []
if torch.cuda.is_available():
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        gpus.append({"name": p.name, "uuid": str(getattr(p, "uuid", "") or "")})
print(json.dumps(gpus))
"""


@dataclass(frozen=True)
class Gpu:
    index: int  # among the GPUs this process sees
    name: str  # as torch.cuda.get_device_name() says it
    pin: str  # CUDA_VISIBLE_DEVICES for its worker: its UUID where CUDA gives one

    @property
    def queue(self) -> str:
        from app.jobs.names import gpu_queue
        from grader import gpu_model_id

        return gpu_queue(gpu_model_id(self.name))


def pin_for(index: int, uuid: str, visible: str | None) -> str:
    """What CUDA_VISIBLE_DEVICES names the `index`-th visible GPU by, for a child: its UUID
    (stable whatever the order or the parent's own CUDA_VISIBLE_DEVICES); without one, the
    parent's own entry for it, else the index."""
    if uuid:
        return uuid if uuid.startswith(("GPU-", "MIG-")) else f"GPU-{uuid}"
    entries = [e.strip() for e in (visible or "").split(",") if e.strip()]
    return entries[index] if index < len(entries) else str(index)


def visible_gpus() -> list[Gpu]:
    """The GPUs this process can use, in CUDA's order (KGRADE_TEST_GPUS instead, in tests)."""
    fake = get_settings().test_gpus
    if fake:
        return [Gpu(i, name, str(i)) for i, name in enumerate(fake)]
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise UsageError(f"--gpu: could not list the GPUs: {last}")
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return [
        Gpu(i, g["name"], pin_for(i, g["uuid"], visible))
        for i, g in enumerate(json.loads(proc.stdout.strip().splitlines()[-1]))
    ]


def select(gpus: list[Gpu], which: str) -> list[Gpu]:
    """`all`, or visible indices such as `0,2`."""
    if not gpus:
        raise UsageError("--gpu: no CUDA GPU is visible to this process")
    if which == "all":
        return gpus
    try:
        wanted = [int(i) for i in which.split(",")]
    except ValueError:
        raise UsageError(f"--gpu {which}: give `all` or GPU indices such as 0,2") from None
    missing = [i for i in wanted if not 0 <= i < len(gpus)]
    if missing:
        raise UsageError(f"--gpu {which}: {len(gpus)} GPU(s) visible, no index {missing[0]}")
    return [gpus[i] for i in dict.fromkeys(wanted)]


def beat_argv() -> list[str]:
    """The reconciler's schedule on its own: one per deployment (Celery beat sends
    `reconcile` to the reconcile queue, which precheck workers serve, every
    KGRADE_RECONCILE_SECONDS)."""
    schedule = get_settings().home.resolve() / "celerybeat-schedule"
    return [sys.executable, "-m", "celery", "-A", "worker.tasks", "beat", "-s", str(schedule)]


def prepare_database() -> None:
    """A worker of the embedded default migrates its own SQLite file, as `kgrade serve` does;
    on PostgreSQL the migrations are a step of their own (`kgrade migrate`, compose's
    `migrate` service), and a worker only checks that they ran."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from app.cli.host import alembic_config, migrate
    from app.db import engine

    s = get_settings()
    if s.database_url is None:
        migrate()
        return
    heads = set(ScriptDirectory.from_config(alembic_config(s.db_url)).get_heads())
    try:
        with engine().connect() as conn:
            current = set(MigrationContext.configure(conn).get_current_heads())
    except Exception as exc:
        raise UsageError(f"the database cannot be reached: {str(exc).splitlines()[0]}") from exc
    if current != heads:
        raise UsageError(
            f"the database is at {', '.join(sorted(current)) or 'no schema'}, not at the "
            f"latest schema ({', '.join(sorted(heads))}): run `kgrade migrate` first"
        )


def supervise(gpus: list[Gpu], grace: float) -> int:
    """`kgrade worker --gpu all`: one worker per GPU, each seeing only its own GPU, restarted
    whenever it dies (never given up on: the other GPUs go on grading meanwhile)."""
    from app.cli.host import worker_argv
    from app.cli.supervise import Program, Supervisor

    prepare_database()
    programs = []
    for g in gpus:
        print(f"kgrade: GPU {g.index} {g.name} ({g.pin}) → {g.queue}", flush=True)
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": g.pin}
        argv = worker_argv([g.queue], beat=False, name=f"gpu{g.index}")
        programs.append(Program(f"gpu{g.index}", argv, env, ROOT))
    return Supervisor(programs, grace=grace, max_quick_failures=None).run()


def cmd_beat() -> int:
    argv = beat_argv()
    os.execvp(argv[0], argv)

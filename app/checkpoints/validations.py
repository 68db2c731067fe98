"""An admin's checkpoint is validated by a worker, not in the request that uploads it.

`start` refuses bad input at once (bad TOML, a bad id, a built-in's id, files that do not
load), stores the files and enqueues the validation task (sent after the request commits).
The task (worker/tasks.py) `claim`s the row, `run`s the validation in a staging folder,
`record`ing each check as it finishes (an admin follows them live), installs a checkpoint
that passed (`service.install`: it opens if its checkpoint.toml says so) and `finish`es the
row. The row is leased like a submission: `reconcile` re-sends a lost message or a dead
worker's validation, at most `max_attempts` times.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app import grading, leases
from app.checkpoints import repository, service, versions
from app.core.errors import DomainError, NotFound, Unavailable
from app.jobs.celery_app import broker_reachable
from app.jobs.names import PRECHECK, TASK_VALIDATE
from app.jobs.outbox import enqueue
from app.models import CheckpointValidation, Status, User, now
from app.settings import Settings
from grader import SandboxRefused, checkpoints, validate

NOT_OPENED = "validation failed: the checkpoint was not opened"
Checks = list[dict[str, Any] | None]  # in their fixed order; None: still running


@dataclass(frozen=True)
class Job:
    hold: leases.Hold
    checkpoint: str
    files: dict[str, str]


@dataclass(frozen=True)
class Outcome:
    valid: bool
    error: str | None


@dataclass(frozen=True)
class Started:
    """An upload taken: its validation (None: the very files of the installed version, so no
    new version and nothing to validate), its version, and the installed one it replaces."""

    row: CheckpointValidation | None
    checkpoint: str
    version: str
    replaces: str | None


def start(
    session: Session,
    admin: User,
    s: Settings,
    upload: tuple[str, str, str, str | None, dict[str, str]],
) -> Started:
    """`upload`: (checkpoint.toml, problem.py, reference.py, starter.py or None, the known-bad
    solutions by file name)."""
    cid, files = service.files_of(*upload)
    version = versions.content_hash(files)
    installed = _installed(session, s, cid)
    if installed == version:
        return Started(None, cid, version, installed)
    service.check_loads(cid, files)
    if not broker_reachable():
        raise Unavailable("the grading queue is unavailable; nothing was stored, try again shortly")
    row = repository.add(
        session, CheckpointValidation(checkpoint=cid, requested_by=admin.id, files=files, checks=[])
    )
    enqueue(session, TASK_VALIDATE, row.id, queue=PRECHECK)
    return Started(row, cid, version, installed)


def _installed(session: Session, s: Settings, checkpoint_id: str) -> str | None:
    """The installed version of a checkpoint (its files kept, before anything replaces them),
    or None if none is installed."""
    try:
        folder = service.get(s, checkpoint_id).folder
    except NotFound:
        return None
    version, files = versions.of_folder(folder)
    versions.keep(session, checkpoint_id, version, files)
    return version


def get(session: Session, validation_id: int) -> CheckpointValidation:
    row = repository.get(session, validation_id)
    if row is None:
        raise NotFound(f"no checkpoint validation {validation_id}")
    return row


def claim(session: Session, validation_id: int, worker: str, s: Settings) -> Job | None:
    hold = leases.claim(session, CheckpointValidation, validation_id, worker, s)
    if hold is None:
        return None
    row = repository.get(session, validation_id)
    assert row is not None
    return Job(hold, row.checkpoint, dict(row.files))


def heartbeat(session: Session, job: Job, s: Settings) -> bool:
    return leases.renew(session, CheckpointValidation, job.hold, s)


def record(session: Session, job: Job, checks: Checks) -> bool:
    """The checks so far (renewing the lease): what the admin's page shows."""
    return leases.write(session, CheckpointValidation, job.hold, checks=checks)


def finish(session: Session, job: Job, outcome: Outcome) -> bool:
    if outcome.valid:  # installed: a new version, its files kept
        versions.keep(session, job.checkpoint, versions.content_hash(job.files), job.files)
    return leases.write(
        session,
        CheckpointValidation,
        job.hold,
        status=Status.DONE,
        finished_at=now(),
        lease_expires_at=None,
        valid=outcome.valid,
        error=outcome.error,
    )


def run(job: Job, s: Settings, on_checks: Callable[[Checks], None]) -> Outcome:
    """Validate the job's files in a staging folder, reporting the checks as they finish;
    install the checkpoint if every check passed."""
    with tempfile.TemporaryDirectory(prefix="kgrade-validation-") as staging:
        folder = service.write_folder(Path(staging), job.checkpoint, job.files)
        try:
            checkpoint = checkpoints.load(folder)
            checks = validate(
                checkpoint,
                grading.options(s, "cpu"),
                on_progress=lambda so_far: on_checks([_plain(c) for c in so_far]),
            )
        except SandboxRefused as exc:
            return Outcome(False, f"{NOT_OPENED}: this worker cannot validate safely: {exc}")
        except Exception as exc:  # an admin's problem.py may raise anything
            return Outcome(False, f"{NOT_OPENED}: the validation could not run: {exc}")
        if not all(c.ok for c in checks):
            return Outcome(False, NOT_OPENED)
        try:
            service.install(s, checkpoint)
        except (DomainError, OSError) as exc:
            return Outcome(False, f"{NOT_OPENED}: it could not be installed: {exc}")
    return Outcome(True, None)


def _plain(check: object | None) -> dict[str, Any] | None:
    return None if check is None else dataclasses.asdict(check)  # type: ignore[call-overload]


def reconcile(session: Session, s: Settings) -> list[int]:
    """Validations to send again (their worker died, their message was lost); those out of
    attempts end as not valid, saying why."""
    t, out = now(), []
    for row in leases.stale(session, CheckpointValidation, s):
        if row.attempts >= s.max_attempts:
            row.status, row.finished_at, row.lease_expires_at = Status.DONE, t, None
            row.valid = False
            row.error = (
                f"{NOT_OPENED}: the validation failed {row.attempts} times (the worker died or "
                "timed out each time); upload it again, or look at the workers' logs"
            )
            continue
        leases.requeue(row, t)
        enqueue(session, TASK_VALIDATE, row.id, queue=PRECHECK)
        out.append(row.id)
    return out

"""Thin tasks: claim the row, grade with `grader`, store; the reconciler; checkpoint
validation; the workers table heartbeat (a GPU worker's with its ncu check); a precheck pool
process's spare child, swapped at each precheck, with KGRADE_PRECHECK_SPARE. Each task takes an id.

The tasks register by name on the application of app/jobs (`celery -A worker.tasks`), and
call `app`'s domain layer only; every message they cause (the GPU stage, re-sends) is sent
by the domain after the task's transaction commits."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from celery.signals import worker_process_shutdown, worker_ready, worker_shutdown
from sqlalchemy.orm import Session

from app import grading
from app.checkpoints import registry, validations, versions
from app.db import transaction
from app.health import service as health
from app.jobs.celery_app import celery_app
from app.jobs.names import TASK_GPU, TASK_PRECHECK, TASK_RECONCILE, TASK_VALIDATE
from app.models import Stage
from app.settings import get_settings
from app.submissions import lifecycle, repository, service
from grader import (
    GradeOptions,
    GradeResult,
    NcuCheck,
    SandboxRefused,
    Spare,
    Verdict,
    check_ncu,
    checkpoints,
    grade,
)

log = logging.getLogger(__name__)
celery = celery_app()
WORKER = f"{socket.gethostname()}:{os.getpid()}"
_spare: list[Spare] = []  # this pool process's sandboxed child, waiting for its next precheck


@celery.task(name=TASK_PRECHECK)
def precheck(submission_id: int) -> None:
    run_stage(submission_id, Stage.PRECHECK)


@celery.task(name=TASK_GPU)
def gpu_grade(submission_id: int) -> None:
    run_stage(submission_id, Stage.GPU)


@celery.task(name=TASK_RECONCILE)
def reconcile() -> int:
    s = get_settings()
    with transaction() as session:
        resends = lifecycle.reconcile(session, s, lifecycle.gpu_queues(session, s))
        again = validations.reconcile(session, s)
    return len(resends) + len(again)


@celery.task(name=TASK_VALIDATE)
def validate_checkpoint(validation_id: int) -> None:
    s = get_settings()
    with transaction() as session:
        job = validations.claim(session, validation_id, WORKER, s)
    if job is None:
        log.info("validation %s: not claimable (done, or held)", validation_id)
        return

    def progress(checks: validations.Checks) -> None:
        with transaction() as session:
            validations.record(session, job, checks)

    with _beating(lambda session: validations.heartbeat(session, job, s)):
        outcome = validations.run(job, s, progress)
    with transaction() as session:
        if not validations.finish(session, job, outcome):
            log.warning("validation %s: lease lost before finishing", validation_id)


def run_stage(submission_id: int, stage: Stage) -> None:
    """Grade one stage of one submission: claim, grade, store (a correct precheck goes on to
    its GPU queue, sent once this commits)."""
    s = get_settings()
    with transaction() as session:
        held = lifecycle.claim(session, submission_id, stage, WORKER, s)
        if held is None:
            log.info("submission %s: not claimable for %s (done, or held)", submission_id, stage)
            return
        sub = repository.get(session, submission_id)
        assert sub is not None
        source, checkpoint_id, explanation = sub.source, sub.checkpoint, sub.explanation

    with _beating(lambda session: lifecycle.heartbeat(session, held, s)):
        result, version = _grade(submission_id, stage, source, checkpoint_id, explanation)

    with transaction() as session:
        # `unchecked`: cases only a GPU can run; the GPU stage runs every case and decides
        if stage == Stage.PRECHECK and result.verdict in {Verdict.CORRECT, Verdict.UNCHECKED}:
            model = lifecycle.gpu_model_for(checkpoint_id, s)
            if model is not None and lifecycle.advance_to_gpu(session, held, result, model):
                return
        if version is not None:
            versions.keep(session, checkpoint_id, *version)
        if not lifecycle.finish(session, held, result, version[0] if version else None):
            log.warning("submission %s: lease lost before finishing; result dropped", submission_id)


def _grade(
    submission_id: int, stage: Stage, source: str, checkpoint_id: str, explanation: str | None
) -> tuple[GradeResult, tuple[str, dict[str, str]] | None]:
    """The result, and the checkpoint version that graded it with its files."""
    s = get_settings()
    try:
        checkpoint = registry.get(checkpoint_id, s.all_checkpoint_dirs)
        version = versions.of_folder(checkpoint.folder)
    except (checkpoints.CheckpointError, OSError) as exc:
        error = f"The checkpoint cannot be loaded: {exc}"
        return GradeResult.internal_error(checkpoint_id, error), None
    return _grade_with(submission_id, stage, source, checkpoint, explanation), version


def _grade_with(
    submission_id: int,
    stage: Stage,
    source: str,
    checkpoint: checkpoints.Checkpoint,
    explanation: str | None,
) -> GradeResult:
    s, checkpoint_id = get_settings(), checkpoint.id
    # A fake GPU of the tests (KGRADE_TEST_GPUS) grades its GPU stage with the interpreter.
    device = "cpu" if stage == Stage.PRECHECK or s.test_gpus else "cuda"
    opts = grading.options(
        s, device, explanation=explanation, report_dir=service.report_dir(s, submission_id)
    )
    spare = _swap_spare(opts) if stage == Stage.PRECHECK and s.precheck_spare else None
    try:
        return grade(source, checkpoint, opts, spare)
    except SandboxRefused as exc:
        return GradeResult.internal_error(checkpoint_id, f"This worker cannot grade safely: {exc}")
    finally:
        if spare is not None and not spare.used:  # it did not fit, or the source never ran
            spare.discard()


def _swap_spare(opts: GradeOptions) -> Spare | None:
    """Take the spare child started during this process's last precheck, and start the next
    one now: it starts Python, torch and Triton beside this grading, not in front of the next."""
    mine = _spare.pop() if _spare else None
    try:
        _spare.append(Spare(opts))
    except Exception:  # no spare: the next precheck starts its own child, as without
        log.exception("could not start a spare sandboxed child")
    return mine


@worker_process_shutdown.connect
def _discard_spare(**_: object) -> None:
    while _spare:
        _spare.pop().discard()


@contextmanager
def _beating(renew: Callable[[Session], bool]) -> Iterator[None]:
    """Renew a lease in a thread while the block runs (every KGRADE_LEASE_SECONDS / 4: the
    grading itself, its benchmark and its Nsight replay run in sandboxed children, so this
    thread beats whatever they do), until the block ends or the lease is lost."""
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(renew, stop), daemon=True)
    beat.start()
    try:
        yield
    finally:
        stop.set()
        beat.join()


def _heartbeat(renew: Callable[[Session], bool], stop: threading.Event) -> None:
    s = get_settings()
    while not stop.wait(s.heartbeat_every):
        try:
            with transaction() as session:
                if not renew(session):
                    return
        except Exception:  # a missed beat is retried on the next tick
            log.exception("heartbeat failed")


# Each worker process says which queues it serves, for /api/health; a GPU worker also whether
# its ncu can read the GPU's counters (checked once, at its start, beside its first gradings).
_seen_stop = threading.Event()
_profiling: dict[str, bool | str | None] = {"can": None, "said": None}


def _check_ncu() -> None:
    _profiling.update(can=None, said="checking")
    try:
        found = check_ncu()
    except Exception as exc:  # the check itself failed: say so, do not guess
        log.exception("the ncu check failed")
        found = NcuCheck(False, f"the check failed ({type(exc).__name__})")
    said = found.reason if found.can_profile else f"cannot profile: {found.reason}"
    log.info("Nsight Compute: %s", said)
    _profiling.update(can=found.can_profile, said=said)


def _report_seen(queues: str, gpu: str | None) -> None:
    while True:
        can, said = _profiling["can"], _profiling["said"]
        try:
            with transaction() as session:
                health.report_seen(
                    session,
                    WORKER,
                    queues,
                    gpu,
                    can if isinstance(can, bool) else None,
                    str(said) if said is not None else None,
                )
        except Exception:
            log.exception("could not report this worker")
        if _seen_stop.wait(10.0):
            return


@worker_ready.connect
def _on_ready(sender: object = None, **_: object) -> None:
    consumer = getattr(sender, "consumer", None) or sender
    queues = ",".join(sorted(q.name for q in consumer.task_consumer.queues))  # type: ignore[union-attr]
    gpu = None
    if any(q.startswith("gpu.") for q in queues.split(",")):
        import torch

        gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else None
        _profiling.update(can=None, said="checking")
        threading.Thread(target=_check_ncu, daemon=True).start()
    threading.Thread(target=_report_seen, args=(queues, gpu), daemon=True).start()


@worker_shutdown.connect
def _on_shutdown(**_: object) -> None:
    _seen_stop.set()
    try:
        with transaction() as session:
            health.forget_worker(session, WORKER)
    except Exception:
        log.exception("could not unregister this worker")

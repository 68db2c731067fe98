"""Thin tasks: claim the row, grade with `grader`, store, route. Each takes an id."""

from __future__ import annotations

import logging
import os
import socket
import threading

from celery.signals import worker_process_shutdown, worker_ready, worker_shutdown
from sqlalchemy import select

from app import grading
from app.db import transaction
from app.models import Stage, Submission, WorkerSeen, now
from app.queue import send_gpu, send_precheck
from app.settings import get_settings
from app.submissions import lifecycle
from grader import GradeOptions, GradeResult, SandboxRefused, Verdict, checkpoints, grade
from grader.pipeline import Spare
from worker.celery_app import TASK_GPU, TASK_PRECHECK, TASK_RECONCILE, celery

log = logging.getLogger(__name__)
WORKER = f"{socket.gethostname()}:{os.getpid()}"
_spare: list[Spare] = []  # this pool process's sandboxed child, waiting for its next precheck


def gpu_model_for(checkpoint_id: str) -> str | None:
    """The GPU queue for a checkpoint: its first target GPU this deployment has workers for."""
    served = get_settings().gpu_models
    try:
        targets = checkpoints.get(
            checkpoint_id, get_settings().all_checkpoint_dirs
        ).definition.target_gpus
    except checkpoints.CheckpointError:
        return None
    return next((m for m in targets if m in served), None)


@celery.task(name=TASK_PRECHECK)
def precheck(submission_id: int) -> None:
    model = run_stage(submission_id, Stage.PRECHECK)
    if model is not None:  # after the commit that queued the GPU stage
        send_gpu(submission_id, model)


@celery.task(name=TASK_GPU)
def gpu_grade(submission_id: int) -> None:
    run_stage(submission_id, Stage.GPU)


@celery.task(name=TASK_RECONCILE)
def reconcile() -> int:
    s = get_settings()
    with transaction() as session:
        queued_gpu = {
            sid: model or gpu_model_for(checkpoint)
            for sid, checkpoint, model in session.execute(
                select(Submission.id, Submission.checkpoint, Submission.gpu_model).where(
                    Submission.stage == Stage.GPU
                )
            )
        }
        resends = lifecycle.reconcile(session, s, queued_gpu)
    for r in resends:  # after the commit
        if r.stage == Stage.GPU and r.gpu_model:
            send_gpu(r.submission_id, r.gpu_model)
        else:
            send_precheck(r.submission_id)
    return len(resends)


def run_stage(submission_id: int, stage: Stage) -> str | None:
    """Grade one stage of one submission. Returns the GPU model whose queue the submission
    now waits in (the caller sends the message), else None."""
    s = get_settings()
    with transaction() as session:
        held = lifecycle.claim(session, submission_id, stage, WORKER, s)
        if held is None:
            log.info("submission %s: not claimable for %s (done, or held)", submission_id, stage)
            return None
        sub = session.get(Submission, submission_id)
        assert sub is not None
        source, checkpoint_id, explanation = sub.source, sub.checkpoint, sub.explanation

    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(held, stop), daemon=True)
    beat.start()
    try:
        result = _grade(submission_id, stage, source, checkpoint_id, explanation)
    finally:
        stop.set()
        beat.join()

    with transaction() as session:
        if stage == Stage.PRECHECK and result.verdict is Verdict.CORRECT:
            model = gpu_model_for(checkpoint_id)
            if model is not None and lifecycle.advance_to_gpu(session, held, result, model):
                return model
        if not lifecycle.finish(session, held, result):
            log.warning("submission %s: lease lost before finishing; result dropped", submission_id)
    return None


def _grade(
    submission_id: int, stage: Stage, source: str, checkpoint_id: str, explanation: str | None
) -> GradeResult:
    s = get_settings()
    device = "cpu" if stage == Stage.PRECHECK else "cuda"
    try:
        checkpoint = checkpoints.get(checkpoint_id, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        return _internal(checkpoint_id, f"The checkpoint cannot be loaded: {exc}")
    opts = grading.options(
        s, device, explanation=explanation, report_dir=s.home / "reports" / str(submission_id)
    )
    spare = _swap_spare(opts) if stage == Stage.PRECHECK and s.precheck_spare else None
    try:
        return grade(source, checkpoint, opts, spare)
    except SandboxRefused as exc:
        return _internal(checkpoint_id, f"This worker cannot grade safely: {exc}")
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


def _internal(checkpoint_id: str, message: str) -> GradeResult:
    return GradeResult(
        checkpoint=checkpoint_id,
        verdict=Verdict.INTERNAL_ERROR,
        level=0,
        device="-",
        messages=[message],
    )


def _heartbeat(held: lifecycle.Claim, stop: threading.Event) -> None:
    s = get_settings()
    while not stop.wait(max(5.0, s.lease_seconds / 3)):
        try:
            with transaction() as session:
                if not lifecycle.heartbeat(session, held, s):
                    return
        except Exception:  # a missed beat is retried on the next tick
            log.exception("heartbeat failed")


# Each worker process says which queues it serves, for /api/health.
_seen_stop = threading.Event()


def _report_seen(queues: str, gpu: str | None) -> None:
    while True:
        try:
            with transaction() as session:
                row = session.get(WorkerSeen, WORKER) or WorkerSeen(name=WORKER)
                row.queues, row.gpu, row.last_seen = queues, gpu, now()
                session.add(row)
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
    threading.Thread(target=_report_seen, args=(queues, gpu), daemon=True).start()


@worker_shutdown.connect
def _on_shutdown(**_: object) -> None:
    _seen_stop.set()
    try:
        with transaction() as session:
            row = session.get(WorkerSeen, WORKER)
            if row is not None:
                session.delete(row)
    except Exception:
        log.exception("could not unregister this worker")

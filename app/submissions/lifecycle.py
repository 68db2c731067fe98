"""A submission's life in the database, the source of truth (no FastAPI here: workers use it).

queued(precheck) → running → queued(gpu) → running → done, or → done at any stage.

- `claim` is a compare-and-set: a row is taken only if it waits for this stage, or if its lease
  expired; it bumps the attempt number and sets a lease. Two workers given the same message
  (a redelivery, a reconciler resend) cannot both take it.
- `heartbeat` renews the lease while a grading runs.
- `finish` writes the result only while the row is still held by this worker and attempt, so a
  worker that lost its lease can never overwrite the result of the one that took over.
- `reconcile` finds rows whose worker died (claimed, lease expired) or whose message the broker
  provably lost (queued longer than a lease and in none of the broker's queues, waiting or
  delivered: app/jobs/census.py), and re-sends them, at most `max_attempts` times, then ends
  them with `internal_error` and a message. A row only waiting in line is left alone.

Every message these functions enqueue (the GPU stage, the reconciler's re-sends) is sent once
the caller's transaction commits (app/jobs/outbox.py). The lease statements are app/leases.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app import leases
from app.checkpoints import registry
from app.jobs import census
from app.jobs.names import PRECHECK, TASK_GPU, TASK_PRECHECK, gpu_queue
from app.jobs.outbox import enqueue
from app.models import Stage, Status, Submission, now
from app.settings import Settings
from app.submissions import events, repository, results
from grader import GradeResult, checkpoints


@dataclass(frozen=True)
class Claim:
    submission_id: int
    worker: str
    attempt: int
    stage: Stage | None = None  # the stage claimed (its events are counted by it)

    @property
    def hold(self) -> leases.Hold:
        return leases.Hold(self.submission_id, self.worker, self.attempt)


def claim(
    session: Session, submission_id: int, stage: Stage, worker: str, s: Settings
) -> Claim | None:
    hold = leases.claim(session, Submission, submission_id, worker, s, Submission.stage == stage)
    if hold is None:
        return None
    if hold.attempt > 1:
        events.record(session, submission_id, stage, events.RETRY)
    return Claim(submission_id, worker, hold.attempt, stage)


def heartbeat(session: Session, c: Claim, s: Settings) -> bool:
    return leases.renew(session, Submission, c.hold, s)


def summary_fields(result: GradeResult) -> dict[str, object]:
    speedup = None
    if result.benchmark and result.benchmark.baseline in result.benchmark.geomean:
        speedup = result.benchmark.geomean[result.benchmark.baseline].median
    return {
        "verdict": result.verdict.value,
        "level": result.level,
        "speedup": speedup,
        "gpu_model": result.benchmark.gpu_model if result.benchmark else None,
        "result": result.model_dump(mode="json"),
    }


def finish(session: Session, c: Claim, result: GradeResult, version: str | None = None) -> bool:
    """Store the result while the row is still held, and keep it in the submission's results
    (app/submissions/results.py), graded by checkpoint `version`."""
    written = leases.write(
        session,
        Submission,
        c.hold,
        status=Status.DONE,
        stage=Stage.DONE,
        finished_at=now(),
        lease_expires_at=None,
        **summary_fields(result),
    )
    if written:
        results.add(session, c.submission_id, version)
        if c.stage is not None:
            events.graded(session, c.submission_id, c.stage, result)
    return written


def advance_to_gpu(session: Session, c: Claim, precheck: GradeResult, model: str) -> bool:
    """The precheck passed: queue the GPU stage on `model`'s queue (a fresh attempt budget),
    keep its result. The row remembers the queue, so that a message lost later is sent again
    to it even if the deployment no longer lists that model (standings count only finished
    rows, and the GPU stage's result sets gpu_model again). The GPU stage's message is sent
    once the caller commits."""
    moved = leases.write(
        session,
        Submission,
        c.hold,
        status=Status.QUEUED,
        stage=Stage.GPU,
        attempts=0,
        claimed_by=None,
        lease_expires_at=None,
        enqueued_at=now(),
        **{**summary_fields(precheck), "gpu_model": model},
    )
    if moved:
        events.graded(session, c.submission_id, Stage.PRECHECK, precheck)
        enqueue(session, TASK_GPU, c.submission_id, queue=gpu_queue(model))
    return moved


def give_up(session: Session, sub: Submission, message: str) -> None:
    result = GradeResult.internal_error(sub.checkpoint, message)
    sub.status, sub.stage, sub.finished_at = Status.DONE, Stage.DONE, now()
    sub.lease_expires_at = None
    for k, v in summary_fields(result).items():
        setattr(sub, k, v)
    session.flush()
    results.add(session, sub.id, None)


@dataclass(frozen=True)
class Resend:
    submission_id: int
    stage: Stage
    gpu_model: str | None


def reconcile(session: Session, s: Settings, gpu_model_for: dict[int, str | None]) -> list[Resend]:
    """Rows to send again: running with an expired lease (worker died), or queued for longer than
    a lease and provably lost by the broker (`_lost`), each enqueued again. Rows out of
    attempts end as internal_error. `gpu_model_for` maps a GPU-stage row to the queue it
    belongs to (`gpu_queues`)."""
    t = now()
    out = []
    stale = leases.stale(session, Submission, s)
    lost = _lost([sub for sub in stale if sub.status == Status.QUEUED], gpu_model_for)
    for sub in stale:
        expired = sub.status == Status.RUNNING
        if not expired and sub.id not in lost:
            continue  # waiting in line: its message is in the broker
        kind = events.LEASE_EXPIRED if expired else events.MESSAGE_LOST
        events.record(session, sub.id, sub.stage, kind)
        if sub.attempts >= s.max_attempts:
            events.record(session, sub.id, sub.stage, events.GAVE_UP)
            give_up(
                session,
                sub,
                f"Grading failed {sub.attempts} times (the worker died or timed out each "
                "time). This is the grader's fault, not yours: resubmit, or tell an instructor.",
            )
            continue
        leases.requeue(sub, t)
        resend = Resend(sub.id, Stage(sub.stage), gpu_model_for.get(sub.id))
        _send_again(session, resend)
        out.append(resend)
    return out


def _message(sub: Submission, gpu_model_for: dict[int, str | None]) -> tuple[str, str]:
    """(queue, task) of the message a queued row waits for."""
    model = gpu_model_for.get(sub.id)
    if sub.stage == Stage.GPU and model:
        return gpu_queue(model), TASK_GPU
    return PRECHECK, TASK_PRECHECK


def _lost(queued: list[Submission], gpu_model_for: dict[int, str | None]) -> set[int]:
    """The ids of these queued rows whose message the broker holds nowhere; none where the
    broker cannot be read (not known to be lost)."""
    if not queued:
        return set()
    wanted = {sub.id: _message(sub, gpu_model_for) for sub in queued}
    held = census.held(sorted({q for q, _ in wanted.values()}))
    if held is None:
        return set()
    return {sid for sid, (_, task) in wanted.items() if (task, sid) not in held}


def _send_again(session: Session, r: Resend) -> None:
    if r.stage == Stage.GPU and r.gpu_model:
        enqueue(session, TASK_GPU, r.submission_id, queue=gpu_queue(r.gpu_model))
    else:
        enqueue(session, TASK_PRECHECK, r.submission_id, queue=PRECHECK)


def gpu_model_for(checkpoint_id: str, s: Settings) -> str | None:
    """The GPU queue for a checkpoint: its first target GPU this deployment has workers for."""
    try:
        targets = registry.get(checkpoint_id, s.all_checkpoint_dirs).definition.target_gpus
    except checkpoints.CheckpointError:
        return None
    return next((m for m in targets if m in s.gpu_models), None)


def gpu_queues(session: Session, s: Settings) -> dict[int, str | None]:
    """For `reconcile`: each GPU-stage row's model, the one it was queued for, or (rows queued
    before rows remembered it) the one its checkpoint goes to now."""
    return {
        sid: model or gpu_model_for(checkpoint, s)
        for sid, checkpoint, model in repository.in_gpu_stage(session)
    }

"""A submission's life in the database, the source of truth (no FastAPI here: workers use it).

queued(precheck) → running → queued(gpu) → running → done, or → done at any stage.

- `claim` is a compare-and-set: a row is taken only if it waits for this stage, or if its lease
  expired; it bumps the attempt number and sets a lease. Two workers given the same message
  (a redelivery, a reconciler resend) cannot both take it.
- `heartbeat` renews the lease while a grading runs.
- `finish` writes the result only while the row is still held by this worker and attempt, so a
  worker that lost its lease can never overwrite the result of the one that took over.
- `reconcile` finds rows whose message was lost or whose worker died, and re-sends them, at most
  `max_attempts` times, then ends them with `internal_error` and a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from app.models import Stage, Status, Submission, now
from app.settings import Settings
from grader import GradeResult, Verdict


@dataclass(frozen=True)
class Claim:
    submission_id: int
    worker: str
    attempt: int


def claim(
    session: Session, submission_id: int, stage: Stage, worker: str, s: Settings
) -> Claim | None:
    t = now()
    row = session.execute(
        update(Submission)
        .where(
            Submission.id == submission_id,
            Submission.stage == stage,
            Submission.attempts < s.max_attempts,
            or_(
                Submission.status == Status.QUEUED,
                and_(Submission.status == Status.RUNNING, Submission.lease_expires_at < t),
            ),
        )
        .values(
            status=Status.RUNNING,
            attempts=Submission.attempts + 1,
            claimed_by=worker,
            lease_expires_at=t + timedelta(seconds=s.lease_seconds),
        )
        .returning(Submission.attempts)
    ).first()
    return Claim(submission_id, worker, row[0]) if row else None


def _held(c: Claim) -> list[Any]:
    return [
        Submission.id == c.submission_id,
        Submission.claimed_by == c.worker,
        Submission.attempts == c.attempt,
        Submission.status == Status.RUNNING,
    ]


def heartbeat(session: Session, c: Claim, s: Settings) -> bool:
    res = session.execute(
        update(Submission)
        .where(*_held(c))
        .values(lease_expires_at=now() + timedelta(seconds=s.lease_seconds))
    )
    return res.rowcount == 1  # type: ignore[attr-defined]


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


def finish(session: Session, c: Claim, result: GradeResult) -> bool:
    res = session.execute(
        update(Submission)
        .where(*_held(c))
        .values(
            status=Status.DONE,
            stage=Stage.DONE,
            finished_at=now(),
            lease_expires_at=None,
            **summary_fields(result),
        )
    )
    return res.rowcount == 1  # type: ignore[attr-defined]


def advance_to_gpu(session: Session, c: Claim, precheck: GradeResult, model: str) -> bool:
    """The precheck passed: queue the GPU stage on `model`'s queue (a fresh attempt budget),
    keep its result. The row remembers the queue, so that a message lost later is sent again
    to it even if the deployment no longer lists that model (standings count only finished
    rows, and the GPU stage's result sets gpu_model again)."""
    res = session.execute(
        update(Submission)
        .where(*_held(c))
        .values(
            status=Status.QUEUED,
            stage=Stage.GPU,
            attempts=0,
            claimed_by=None,
            lease_expires_at=None,
            enqueued_at=now(),
            **{**summary_fields(precheck), "gpu_model": model},
        )
    )
    return res.rowcount == 1  # type: ignore[attr-defined]


def give_up(session: Session, sub: Submission, message: str) -> None:
    result = GradeResult(
        checkpoint=sub.checkpoint,
        verdict=Verdict.INTERNAL_ERROR,
        level=0,
        device="-",
        messages=[message],
    )
    sub.status, sub.stage, sub.finished_at = Status.DONE, Stage.DONE, now()
    sub.lease_expires_at = None
    for k, v in summary_fields(result).items():
        setattr(sub, k, v)


@dataclass(frozen=True)
class Resend:
    submission_id: int
    stage: Stage
    gpu_model: str | None


def reconcile(session: Session, s: Settings, gpu_model_for: dict[int, str | None]) -> list[Resend]:
    """Rows to send again: running with an expired lease (worker died), or queued for longer than
    a lease (message lost). Rows out of attempts end as internal_error. `gpu_model_for` maps a
    GPU-stage row to the queue it belongs to (decided by the caller: the queue the row was
    sent to, or from the checkpoint for rows queued before rows remembered it)."""
    t = now()
    stale = t - timedelta(seconds=s.lease_seconds)
    rows = session.scalars(
        select(Submission)
        .where(
            or_(
                and_(Submission.status == Status.RUNNING, Submission.lease_expires_at < t),
                and_(Submission.status == Status.QUEUED, Submission.enqueued_at < stale),
            )
        )
        .with_for_update(skip_locked=True)
    ).all()
    out = []
    for sub in rows:
        if sub.attempts >= s.max_attempts:
            give_up(
                session,
                sub,
                f"Grading failed {sub.attempts} times (the worker died or timed out each "
                "time). This is the grader's fault, not yours: resubmit, or tell an instructor.",
            )
            continue
        # Back to queued, so the next pass waits a whole lease before sending it again.
        sub.status, sub.claimed_by, sub.lease_expires_at, sub.enqueued_at = (
            Status.QUEUED,
            None,
            None,
            t,
        )
        out.append(Resend(sub.id, Stage(sub.stage), gpu_model_for.get(sub.id)))
    return out

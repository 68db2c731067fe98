"""The submissions, overrides and evidence tables' queries (the claim/lease/finish statements
are the lifecycle's own: app/submissions/lifecycle.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session, contains_eager, defer

from app.models import Evidence, EvidenceStatus, LevelOverride, Stage, Submission, User


def get(session: Session, submission_id: int) -> Submission | None:
    return session.get(Submission, submission_id)


def add(session: Session, sub: Submission) -> Submission:
    session.add(sub)
    session.flush()
    return sub


def serialize_admissions(session: Session, user_id: int, checkpoint: str) -> None:
    """One admission at a time per student and checkpoint, to the end of the transaction (the
    quota's count and its insert together): an advisory lock on PostgreSQL; SQLite has one
    writer at a time, taken by the submission's insert, which comes before the count."""
    if session.get_bind().dialect.name == "postgresql":
        key = f"quota:{user_id}:{checkpoint}"
        session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})


def created_since(
    session: Session, user_id: int, checkpoint: str, since: datetime
) -> list[datetime]:
    """When the student's submissions to the checkpoint since `since` were made, oldest first
    (the quota: an index range scan of ix_submissions_user_checkpoint_created)."""
    return list(
        session.scalars(
            select(Submission.created_at)
            .where(
                Submission.user_id == user_id,
                Submission.checkpoint == checkpoint,
                Submission.created_at > since,
            )
            .order_by(Submission.created_at)
        ).all()
    )


def history(
    session: Session,
    *,
    user_id: int | None,
    student: str | None,
    checkpoint: str | None,
    limit: int,
    section: str | None = None,
    before: int | None = None,
) -> list[Submission]:
    """Newest first: one student's (`user_id`), or anyone's (`student`: by name; `section`:
    its students'); `before`: only ids below it (the next page). The rows
    carry summary fields: the source, explanation and full result (kilobytes of JSON each)
    load only if asked for; the user comes with the join, not one query a row."""
    q = (
        select(Submission)
        .join(User, Submission.user_id == User.id)
        .options(
            contains_eager(Submission.user),
            defer(Submission.source),
            defer(Submission.explanation),
            defer(Submission.result),
        )
    )
    if user_id is not None:
        q = q.where(Submission.user_id == user_id)
    elif student:
        q = q.where(User.name == student)
    if section and user_id is None:
        q = q.where(User.section == section)
    if checkpoint:
        q = q.where(Submission.checkpoint == checkpoint)
    if before is not None:
        q = q.where(Submission.id < before)
    return list(session.scalars(q.order_by(Submission.id.desc()).limit(limit)).all())


def in_gpu_stage(session: Session) -> list[tuple[int, str, str | None]]:
    """(id, checkpoint, the GPU model it was queued for) of every row in the GPU stage."""
    rows = session.execute(
        select(Submission.id, Submission.checkpoint, Submission.gpu_model).where(
            Submission.stage == Stage.GPU
        )
    )
    return [(sid, checkpoint, model) for sid, checkpoint, model in rows]


def overrides(session: Session, submission_id: int) -> list[tuple[LevelOverride, str]]:
    """A submission's level overrides, oldest first, each with its instructor's name."""
    rows = session.execute(
        select(LevelOverride, User.name)
        .join(User, User.id == LevelOverride.instructor_id)
        .where(LevelOverride.submission_id == submission_id)
        .order_by(LevelOverride.id)
    ).all()
    return [(o, name) for o, name in rows]


def get_evidence(session: Session, evidence_id: int) -> Evidence | None:
    return session.get(Evidence, evidence_id)


def pending_evidence(session: Session) -> list[Evidence]:
    """Evidence links no instructor has decided yet."""
    return list(
        session.scalars(select(Evidence).where(Evidence.status == EvidenceStatus.PENDING)).all()
    )


def of_user(session: Session, user_id: int, limit: int) -> list[Submission]:
    """A student's submissions, oldest first, the latest `limit`: summary fields only (the
    source, explanation and full result load only if asked for)."""
    rows = session.scalars(
        select(Submission)
        .where(Submission.user_id == user_id)
        .options(defer(Submission.source), defer(Submission.explanation), defer(Submission.result))
        .order_by(Submission.id.desc())
        .limit(limit)
    ).all()
    return list(reversed(rows))


def results(session: Session, ids: list[int]) -> dict[int, dict[str, Any] | None]:
    """The full results of these submissions, by id."""
    if not ids:
        return {}
    rows = session.execute(select(Submission.id, Submission.result).where(Submission.id.in_(ids)))
    return {sid: result for sid, result in rows}

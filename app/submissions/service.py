"""Admission and reading of submissions. Services flush; the request boundary commits."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, contains_eager, defer

from app.checkpoints import registry
from app.deps import is_staff
from app.errors import ApiError
from app.models import Submission, User, now
from app.settings import Settings
from grader import checkpoints

MAX_SOURCE_BYTES = 256 * 1024


def admit(
    session: Session,
    user: User,
    checkpoint_id: str,
    source: str,
    explanation: str | None,
    s: Settings,
) -> Submission:
    try:
        size = len(source.encode("utf-8"))
        if explanation is not None:
            explanation.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ApiError(400, "the source or explanation is not valid UTF-8 text") from exc
    if size > MAX_SOURCE_BYTES:
        raise ApiError(413, f"the source is {size} bytes; a submission may be at most 256 KiB")
    if not source.strip():
        raise ApiError(400, "the source is empty")
    try:
        checkpoint = registry.get(checkpoint_id, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        raise ApiError(404, str(exc)) from exc
    if not checkpoint.definition.open:
        raise ApiError(409, f"checkpoint '{checkpoint_id}' is closed to new submissions")
    window = now() - timedelta(hours=1)
    recent = session.scalars(
        select(Submission.created_at)
        .where(
            Submission.user_id == user.id,
            Submission.checkpoint == checkpoint_id,
            Submission.created_at > window,
        )
        .order_by(Submission.created_at)
    ).all()
    if len(recent) >= s.submissions_per_hour:
        oldest = recent[0] if recent[0].tzinfo else recent[0].replace(tzinfo=now().tzinfo)
        wait = max(1, int((oldest + timedelta(hours=1) - now()).total_seconds()) + 1)
        raise ApiError(
            429,
            f"quota: {s.submissions_per_hour} submissions per hour on {checkpoint_id}; "
            f"try again in {wait} s",
            {"Retry-After": str(wait)},
        )
    sub = Submission(
        user_id=user.id, checkpoint=checkpoint_id, source=source, explanation=explanation
    )
    session.add(sub)
    session.flush()
    return sub


def readable(session: Session, user: User, submission_id: int) -> Submission:
    """A student reads only their own submissions; others' look like they do not exist."""
    sub = session.get(Submission, submission_id)
    if sub is None or (sub.user_id != user.id and not is_staff(user)):
        raise ApiError(404, f"no submission {submission_id}")
    return sub


def history(
    session: Session, user: User, *, checkpoint: str | None, student: str | None, limit: int
) -> list[Submission]:
    # The list shows summary fields: the source, explanation and full result (kilobytes of
    # JSON each) load only if asked for; the user comes with the join, not one query a row.
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
    if is_staff(user):
        if student:
            q = q.where(User.name == student)
    else:
        q = q.where(Submission.user_id == user.id)
    if checkpoint:
        q = q.where(Submission.checkpoint == checkpoint)
    return list(session.scalars(q.order_by(Submission.id.desc()).limit(limit)).all())


def count_by_user(session: Session, checkpoint: str) -> dict[int, int]:
    rows = session.execute(
        select(Submission.user_id, func.count())
        .where(Submission.checkpoint == checkpoint)
        .group_by(Submission.user_id)
    ).all()
    return {uid: n for uid, n in rows}

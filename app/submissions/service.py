"""Admission and reading of submissions. Services flush; the boundary (the request, the task)
commits, and the precheck is sent after that commit (app/jobs/outbox.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy.orm import Session

from app.checkpoints import service as checkpoint_service
from app.core.errors import Conflict, Invalid, NotFound, QuotaExceeded, TooLarge, Unavailable
from app.core.limits import MAX_EXPLANATION_BYTES, MAX_SOURCE_BYTES
from app.deadlines import service as deadlines
from app.jobs.celery_app import broker_reachable
from app.jobs.names import PRECHECK, TASK_PRECHECK
from app.jobs.outbox import enqueue
from app.models import Submission, User, now
from app.settings import Settings
from app.submissions import repository
from app.users.service import is_staff
from grader import checkpoints


def lines(text: str) -> str:
    """Text with its line ends as Python writes them: a browser's form sends CRLF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def submit(
    session: Session,
    user: User,
    checkpoint_id: str,
    source: str,
    explanation: str | None,
    s: Settings,
) -> Submission:
    """The only way a submission is admitted (the API and the submit page both call it): the
    broker reachable (else nothing is stored), the text, the checkpoint open, its deadline
    (refused before opening and past it as its policy says, else marked late after the due
    time), the quota; then the row, and its precheck enqueued to be sent once the boundary
    commits."""
    if not broker_reachable():
        raise Unavailable("the grading queue is unavailable; nothing was stored, try again shortly")
    source = lines(source)
    _check_text(source, explanation)
    checkpoint = _check_open(checkpoint_id, s)
    at = now()
    late = deadlines.admit(session, checkpoint, at)
    repository.serialize_admissions(session, user.id, checkpoint_id)
    sub = repository.add(
        session,
        Submission(
            user_id=user.id,
            checkpoint=checkpoint_id,
            source=source,
            explanation=explanation,
            late=late,
            created_at=at,
        ),
    )
    try:  # counted with this one in, after it holds the lock: concurrent ones wait for it
        _check_quota(session, user, checkpoint_id, s)
    except QuotaExceeded:
        session.delete(sub)
        session.flush()
        raise
    enqueue(session, TASK_PRECHECK, sub.id, queue=PRECHECK)
    return sub


def _check_text(source: str, explanation: str | None) -> None:
    try:
        size = len(source.encode("utf-8"))
        said = len(explanation.encode("utf-8")) if explanation is not None else 0
    except UnicodeEncodeError as exc:
        raise Invalid("the source or explanation is not valid UTF-8 text") from exc
    if size > MAX_SOURCE_BYTES:
        raise TooLarge(f"the source is {size} bytes; a submission may be at most 256 KiB")
    if said > MAX_EXPLANATION_BYTES:
        raise TooLarge(
            f"the explanation is {said} bytes; an explanation may be at most "
            f"{MAX_EXPLANATION_BYTES // 1024} KiB"
        )
    if not source.strip():
        raise Invalid("the source is empty")


def _check_open(checkpoint_id: str, s: Settings) -> checkpoints.Checkpoint:
    checkpoint = checkpoint_service.get(s, checkpoint_id)  # as this deployment has it
    if not checkpoint.definition.open:
        raise Conflict(f"checkpoint '{checkpoint_id}' is closed to new submissions")
    return checkpoint


def _check_quota(session: Session, user: User, checkpoint_id: str, s: Settings) -> None:
    recent = repository.created_since(session, user.id, checkpoint_id, now() - timedelta(hours=1))
    if len(recent) <= s.submissions_per_hour:  # the new one included
        return
    oldest = recent[0] if recent[0].tzinfo else recent[0].replace(tzinfo=now().tzinfo)
    wait = max(1, int((oldest + timedelta(hours=1) - now()).total_seconds()) + 1)
    raise QuotaExceeded(
        f"quota: {s.submissions_per_hour} submission{'s' if s.submissions_per_hour != 1 else ''}"
        f" per hour on {checkpoint_id}; "
        f"try again in {wait} s",
        retry_after=wait,
    )


def readable(session: Session, user: User, submission_id: int) -> Submission:
    """A student reads only their own submissions; others' look like they do not exist."""
    sub = repository.get(session, submission_id)
    if sub is None or (sub.user_id != user.id and not is_staff(user)):
        raise NotFound(f"no submission {submission_id}")
    return sub


def history(
    session: Session,
    user: User,
    *,
    checkpoint: str | None,
    student: str | None,
    limit: int,
    section: str | None = None,
    before: int | None = None,
) -> list[Submission]:
    """Newest first: a student's own; staff: anyone's, one `student`'s or one `section`'s;
    `before`: the page after the one that ended at that id."""
    staff = is_staff(user)
    return repository.history(
        session,
        user_id=None if staff else user.id,
        student=student if staff else None,
        checkpoint=checkpoint,
        limit=limit,
        section=section if staff else None,
        before=before,
    )


def nsight_report(s: Settings, submission_id: int) -> Path | None:
    """The full Nsight Compute report of a GPU grading, kept for download, if there is one."""
    path = report_dir(s, submission_id) / "submission-full.ncu-rep"
    return path if path.is_file() else None


def report_dir(s: Settings, submission_id: int) -> Path:
    """Where a grading keeps its Nsight report."""
    return s.home / "reports" / str(submission_id)

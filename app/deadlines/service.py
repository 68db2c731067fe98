"""Deadlines: a checkpoint's effective deadline (an instructor's, stored in the database,
else its definition's), admission against it, the late mark, and what a viewer may see of
hidden cases (decided when a result is read, so a moved deadline needs no regrade)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.orm import Session

from app.checkpoints import registry
from app.core.errors import Conflict, Forbidden, Invalid
from app.deadlines import repository
from app.models import CheckpointDeadline, Submission, User, now
from app.settings import Settings
from app.users.service import is_staff
from grader import Admission, DeadlineSpec, LatePolicy, checkpoints, withhold_hidden


def effective(session: Session, cp: checkpoints.Checkpoint) -> DeadlineSpec | None:
    row = repository.get(session, cp.id)
    if row is None:
        return cp.definition.deadline
    return DeadlineSpec(
        opens=row.opens_at,
        due=row.due_at,
        late_until=row.late_until,
        policy=LatePolicy(row.policy),
        timezone=row.timezone,
    )


def source(session: Session, cp: checkpoints.Checkpoint) -> str:
    """Where the effective deadline comes from: 'instructor', 'definition' or 'none'."""
    if repository.get(session, cp.id) is not None:
        return "instructor"
    return "definition" if cp.definition.deadline is not None else "none"


def admit(session: Session, cp: checkpoints.Checkpoint, at: datetime | None = None) -> bool:
    """Whether a submission made now is late; refused before opening (409) and after the due
    time or the late window, as the policy says (403)."""
    deadline = effective(session, cp)
    if deadline is None:
        return False
    at = at or now()
    state = deadline.admission(at)
    if state is Admission.NOT_OPEN:
        assert deadline.opens is not None
        raise Conflict(f"checkpoint '{cp.id}' opens at {deadline.shown(deadline.opens)}")
    if state is Admission.PAST:
        end = deadline.late_until or deadline.due
        what = "its late window closed" if deadline.late_until else "it was due"
        raise Forbidden(
            f"checkpoint '{cp.id}' takes no more submissions: {what} at {deadline.shown(end)}"
        )
    return state is Admission.LATE


def parse(fields: dict[str, Any]) -> DeadlineSpec:
    """A deadline from an instructor's fields, or a clear Invalid."""
    try:
        return DeadlineSpec.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        raise Invalid(f"{where}: {msg}" if where else msg) from exc


def set_deadline(
    session: Session, user: User, cp: checkpoints.Checkpoint, deadline: DeadlineSpec
) -> DeadlineSpec:
    """An instructor's deadline, overriding the definition's; the late marks follow it."""
    repository.put(
        session,
        CheckpointDeadline(
            checkpoint=cp.id,
            opens_at=deadline.opens,
            due_at=deadline.due,
            late_until=deadline.late_until,
            policy=str(deadline.policy),
            timezone=deadline.timezone,
            set_by=user.id,
            set_at=now(),
        ),
    )
    repository.mark_late(session, cp.id, deadline.due)
    return deadline


def clear(session: Session, cp: checkpoints.Checkpoint) -> DeadlineSpec | None:
    """Back to the definition's deadline (or none); the late marks follow."""
    repository.remove(session, cp.id)
    deadline = cp.definition.deadline
    repository.mark_late(session, cp.id, deadline.due if deadline else None)
    return deadline


def hidden_shown(
    session: Session, user: User, cp: checkpoints.Checkpoint | None, at: datetime | None = None
) -> bool:
    """Staff always see hidden cases; a student once the checkpoint's due time has passed
    (never before, and never for a checkpoint with no deadline or that is gone)."""
    if is_staff(user):
        return True
    deadline = effective(session, cp) if cp is not None else None
    return deadline is not None and (at or now()) > deadline.due


def viewed(
    session: Session,
    user: User,
    cp: checkpoints.Checkpoint | None,
    result: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """A stored result as `user` may see it now."""
    if not result or hidden_shown(session, user, cp):
        return result
    deadline = effective(session, cp) if cp is not None else None
    until = (
        f"the due time, {deadline.shown(deadline.due)}"
        if deadline
        else "the due time (none is set yet)"
    )
    return withhold_hidden(result, until)


def submission_result(
    session: Session, user: User, sub: Submission, s: Settings
) -> dict[str, Any] | None:
    """A submission's stored result as `user` may see it now (its checkpoint gone: as one
    with no deadline, so a student never sees its hidden cases)."""
    try:
        cp: checkpoints.Checkpoint | None = registry.get(sub.checkpoint, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError:
        cp = None
    return viewed(session, user, cp, sub.result)


def results_as_seen(
    session: Session, user: User, sub: Submission, s: Settings
) -> Callable[[dict[str, Any] | None], dict[str, Any] | None]:
    """`viewed` for each of a submission's kept results (its checkpoint loaded once): a
    regrade's history withholds hidden cases from a student exactly as the current result."""
    try:
        cp: checkpoints.Checkpoint | None = registry.get(sub.checkpoint, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError:
        cp = None
    return lambda result: viewed(session, user, cp, result)

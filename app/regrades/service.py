"""Regrades: an instructor grades again one submission, a student's submissions to a
checkpoint, or all of a checkpoint's, with the checkpoint's current version, as background
work through the ordinary queue (each submission's precheck sent after the commit,
app/jobs/outbox.py; a GPU stage follows as for a new submission).

Every earlier result is kept (app/submissions/results.py): a result stored before results
were kept is archived first. While a submission is regraded it is queued again and off the
boards (standings count graded rows only); its student's other graded submissions stay on
them. A regrade changes a submission's row, never adds one, so it cannot count twice. The
override of an earlier result stays with that result, in the history, and is carried to the
new result unless the instructor asks to clear the overrides (app/submissions/results.py
`carry`). Submissions the installed version already graded are left out unless forced (a
regrade that would change nothing is refused, saying so). Submissions still queued or running
are not taken (the current version grades them anyway); progress is how many of the
regrade's submissions have a result of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.checkpoints import service as checkpoints
from app.core.errors import Conflict, Invalid, NotFound, Unavailable
from app.jobs.celery_app import broker_reachable
from app.jobs.names import PRECHECK, TASK_PRECHECK
from app.jobs.outbox import enqueue
from app.models import Regrade, Stage, Status, Submission, User, now
from app.regrades import repository
from app.settings import Settings
from app.submissions import repository as submissions
from app.submissions import results
from app.users import repository as users


@dataclass(frozen=True)
class Target:
    """What to regrade: a submission, or a checkpoint (all of it, or one student's)."""

    checkpoint: str | None = None
    student: str | None = None
    submission: int | None = None


@dataclass(frozen=True)
class How:
    """`force`: regrade what the installed version already graded too; `carry_overrides`:
    the override in force on each submission carries to its new result."""

    force: bool = False
    carry_overrides: bool = True


@dataclass(frozen=True)
class Progress:
    id: int
    checkpoint: str
    scope: str
    target: str | None
    version: str
    carry_overrides: bool
    by: str
    created_at: datetime
    total: int
    done: int

    @property
    def finished(self) -> bool:
        return self.done >= self.total


def start(
    session: Session, instructor: User, s: Settings, what: Target, how: How | None = None
) -> Progress:
    how = how or How()
    checkpoint, scope, target, version, subs = _chosen(session, s, what, how)
    if not broker_reachable():
        raise Unavailable("the grading queue is unavailable; nothing was changed, try again")
    row = repository.add(
        session,
        Regrade(
            checkpoint=checkpoint,
            scope=scope,
            target=target,
            version=version,
            requested_by=instructor.id,
            total=len(subs),
            carry_overrides=how.carry_overrides,
        ),
    )
    for sub in subs:
        _requeue(session, sub, row.id)
    session.flush()
    return progress_of(session, [row])[0]


def preview(session: Session, s: Settings, what: Target, how: How) -> tuple[int, str]:
    """How many submissions `start` would queue again now, and with which version: what a
    confirmation says before anything changes (the same refusals as `start`)."""
    _, _, _, version, subs = _chosen(session, s, what, how)
    return len(subs), version


def _chosen(
    session: Session, s: Settings, what: Target, how: How
) -> tuple[str, str, str | None, str, list[Submission]]:
    """(checkpoint, scope, target, version, the submissions to grade again), or why none."""
    checkpoint, scope, target, user_id = _resolve(session, what)
    version = checkpoints.version(checkpoints.get(s, checkpoint))
    if version is None:
        raise Conflict(f"checkpoint '{checkpoint}' cannot be read to grade with")
    subs = repository.graded(session, checkpoint, user_id, what.submission)
    if not subs:
        if what.submission is not None:
            raise Conflict(f"submission {what.submission} is still being graded")
        raise Conflict(f"nothing graded to regrade on '{checkpoint}'{_of(what.student)}")
    if not how.force:
        subs = [sub for sub in subs if sub.checkpoint_version != version]
        if not subs:
            raise Conflict(
                f"already graded with version {version[:12]}, the one installed now: a "
                "regrade would change nothing. To grade again anyway, force it "
                "(kgrade regrade --force, or the form's 'even if unchanged' box)"
            )
    return checkpoint, scope, target, version, subs


def _of(student: str | None) -> str:
    return f" by {student}" if student else ""


def _resolve(session: Session, what: Target) -> tuple[str, str, str | None, int | None]:
    """(checkpoint, scope, target, the student's id) of a request, or a clear refusal."""
    if what.submission is not None:
        sub = submissions.get(session, what.submission)
        if sub is None:
            raise NotFound(f"no submission {what.submission}")
        if what.checkpoint and what.checkpoint != sub.checkpoint:
            raise Invalid(f"submission {sub.id} is of '{sub.checkpoint}', not '{what.checkpoint}'")
        return sub.checkpoint, "submission", str(sub.id), None
    if not what.checkpoint:
        raise Invalid("say what to regrade: a submission, or a checkpoint (and a student)")
    if what.student is None:
        return what.checkpoint, "checkpoint", None, None
    user = users.by_name(session, what.student)
    if user is None:
        raise NotFound(f"no user named {what.student!r}")
    return what.checkpoint, "student", user.name, user.id


def _requeue(session: Session, sub: Submission, regrade_id: int) -> None:
    """Queue a graded submission again, its result kept in its history first."""
    results.archive(session, sub)
    sub.status, sub.stage, sub.attempts = Status.QUEUED, Stage.PRECHECK, 0
    sub.claimed_by, sub.lease_expires_at, sub.finished_at = None, None, None
    sub.enqueued_at, sub.regrade_id, sub.result_id = now(), regrade_id, None
    sub.verdict = sub.level = sub.speedup = sub.gpu_model = sub.result = None
    enqueue(session, TASK_PRECHECK, sub.id, queue=PRECHECK)


def get(session: Session, regrade_id: int) -> Progress:
    row = repository.get(session, regrade_id)
    if row is None:
        raise NotFound(f"no regrade {regrade_id}")
    return progress_of(session, [row])[0]


def listed(session: Session, checkpoint: str | None, limit: int = 20) -> list[Progress]:
    return progress_of(session, repository.of_checkpoint(session, checkpoint, limit))


def progress_of(session: Session, rows: list[Regrade]) -> list[Progress]:
    done = repository.done_counts(session, [r.id for r in rows])
    by = repository.names(session, list({r.requested_by for r in rows}))
    return [
        Progress(
            id=r.id,
            checkpoint=r.checkpoint,
            scope=r.scope,
            target=r.target,
            version=r.version,
            carry_overrides=r.carry_overrides,
            by=by.get(r.requested_by, "?"),
            created_at=r.created_at,
            total=r.total,
            done=done.get(r.id, 0),
        )
        for r in rows
    ]


@dataclass(frozen=True)
class Member:
    """A submission of a regrade: the level in force before it and after it (None while it is
    queued), and the override carried to its new result, if one was."""

    sub: Submission
    student: str
    before: int | None
    after: int | None
    carried: results.Override | None


def members(session: Session, regrade_id: int) -> list[Member]:
    get(session, regrade_id)  # a 404 for an unknown one
    rows = repository.members(session, regrade_id)
    kept = results.levels_in_force(session, [sub.id for sub, _ in rows])
    out = []
    for sub, name in rows:
        mine = kept.get(sub.id, [])
        i = next((k for k, (r, _, _) in enumerate(mine) if r.regrade_id == regrade_id), None)
        if i is None:  # still being regraded: before is its latest result
            before = mine[-1][1] if mine else None
            out.append(Member(sub, name, before, None, None))
            continue
        before = mine[i - 1][1] if i > 0 else None
        out.append(Member(sub, name, before, mine[i][1], mine[i][2]))
    return out

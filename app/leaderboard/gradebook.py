"""The gradebook: every rostered student (their email and section) against checkpoints, the
level in force on each student's best submission (an instructor's override included), with
its marks, as CSV: one checkpoint's (`checkpoint_csv`) or a whole course's, one column per
checkpoint (`course_csv`). On-time work counts unless late work is included, as on the boards.

Marks: `override` (the level in force is an instructor's), `late` (the counted best was late,
or later late work was left out), `late only` (nothing on time: nothing counted), `none` (no
submission). Times are ISO 8601 in UTC with the zone, to the second."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core import csvcell
from app.models import Role, Scope, Status, Submission, User
from app.submissions import results


@dataclass
class Cell:
    """One student's standing on one checkpoint."""

    level: int | None = None
    speedup: float | None = None
    best: int | None = None  # the submission counted
    best_late: bool = False
    submissions: int = 0
    late: int = 0
    last: datetime | None = None
    marks: list[str] = field(default_factory=list)


def when(t: datetime | None) -> str:
    return "" if t is None else t.astimezone(UTC).replace(microsecond=0).isoformat()


def students(session: Session, section: str | None = None) -> list[User]:
    """The roster: every student account (disabled ones too: their grades stand), by name."""
    q = select(User).where(User.role == Role.STUDENT).order_by(User.name)
    if section:
        q = q.where(User.section == section)
    return list(session.scalars(q).all())


def _better(a: Submission, cell: Cell) -> bool:
    key = (a.level if a.level is not None else -1, a.speedup or 0.0)
    return cell.best is None or key > (
        cell.level if cell.level is not None else -1,
        cell.speedup or 0.0,
    )


def cells(
    session: Session, checkpoints: list[str], user_ids: list[int], scope: Scope
) -> dict[tuple[int, str], Cell]:
    """(student id, checkpoint) → its cell, for every pair (an empty cell: no submission)."""
    out = {(u, cp): Cell() for u in user_ids for cp in checkpoints}
    if not user_ids or not checkpoints:
        return out
    subs = session.scalars(
        select(Submission).where(
            Submission.checkpoint.in_(checkpoints), Submission.user_id.in_(user_ids)
        )
    ).all()
    for sub in subs:
        c = out[(sub.user_id, sub.checkpoint)]
        c.submissions += 1
        c.late += int(sub.late)
        c.last = sub.created_at if c.last is None else max(c.last, sub.created_at)
        counted = sub.status == Status.DONE and (scope is Scope.ALL or not sub.late)
        if counted and _better(sub, c):
            c.level, c.speedup, c.best, c.best_late = sub.level, sub.speedup, sub.id, sub.late
    changed = results.in_force_by_id(session, [c.best for c in out.values() if c.best])
    for c in out.values():
        if c.best is not None and c.best in changed:
            c.marks.append("override")
        if c.submissions == 0:
            c.marks.append("none")
        elif c.best is None and c.late and c.late == c.submissions:
            c.marks.append("late only")
        elif c.best_late or (c.late and scope is Scope.ON_TIME):
            c.marks.append("late" if c.best_late else "late work not counted")
    return out


def checkpoint_csv(
    session: Session, checkpoint: str, scope: Scope, section: str | None = None
) -> str:
    """One checkpoint: a line per rostered student."""
    roster = students(session, section)
    found = cells(session, [checkpoint], [u.id for u in roster], scope)
    buf = io.StringIO()
    w = csvcell.writer(buf)  # a name like =HYPERLINK(…) is text, not a formula
    w.writerow(
        [
            "student",
            "email",
            "section",
            "best_level",
            "best_speedup",
            "submissions",
            "late_submissions",
            "last_submission",
            "marks",
        ]
    )
    for u in roster:
        c = found[(u.id, checkpoint)]
        w.writerow(
            [
                u.name,
                u.email or "",
                u.section or "",
                "" if c.level is None else c.level,
                "" if c.speedup is None else f"{c.speedup:.4f}",
                c.submissions,
                c.late,
                when(c.last),
                "; ".join(c.marks),
            ]
        )
    return buf.getvalue()


def course_csv(
    session: Session, checkpoints: list[str], scope: Scope, section: str | None = None
) -> str:
    """The course: a line per rostered student, the level in force and the marks per
    checkpoint (in the course's order), and the student's last submission."""
    roster = students(session, section)
    found = cells(session, checkpoints, [u.id for u in roster], scope)
    buf = io.StringIO()
    w = csvcell.writer(buf)  # a name like =HYPERLINK(…) is text, not a formula
    per = [h for cp in checkpoints for h in (cp, f"{cp} marks")]
    w.writerow(["student", "email", "section", *per, "last_submission"])
    for u in roster:
        mine = [found[(u.id, cp)] for cp in checkpoints]
        lasts = [c.last for c in mine if c.last is not None]
        levels = [v for c in mine for v in ("" if c.level is None else c.level, "; ".join(c.marks))]
        w.writerow(
            [u.name, u.email or "", u.section or "", *levels, when(max(lasts) if lasts else None)]
        )
    return buf.getvalue()

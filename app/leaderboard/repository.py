"""The leaderboard's queries: `standings` (kept by the database's triggers) and the export's
aggregate of `submissions`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Scope, Standing, Status, Submission, User


def gpu_models(session: Session, checkpoint: str, scope: Scope) -> list[str]:
    return list(
        session.scalars(
            select(Standing.gpu_model)
            .where(Standing.checkpoint == checkpoint, Standing.scope == scope)
            .distinct()
            .order_by(Standing.gpu_model)
        ).all()
    )


def sections(session: Session) -> list[str]:
    """The sections students are in, for a board's filter."""
    found = session.scalars(
        select(User.section).where(User.section.is_not(None)).distinct().order_by(User.section)
    ).all()
    return [s for s in found if s is not None]


def board(
    session: Session,
    checkpoint: str,
    model: str,
    limit: int | None,
    scope: Scope,
    section: str | None = None,
) -> list[tuple[int, str, int, float | None, int]]:
    """(submission id, student, level, speedup, submissions) best first, in the order of
    ix_standings_rank: no ranking of every graded submission at read time; `section`: only
    its students."""
    query = (
        select(
            Standing.submission_id,
            User.name,
            Standing.level,
            Standing.speedup,
            Standing.submissions,
        )
        .join(User, User.id == Standing.user_id)
        .where(
            Standing.checkpoint == checkpoint,
            Standing.scope == scope,
            Standing.gpu_model == model,
        )
        .order_by(
            Standing.level.desc(),
            Standing.speedup.desc().nulls_last(),
            Standing.submission_id,
        )
        .limit(limit)
    )
    if section is not None:
        query = query.where(User.section == section)
    return [
        (sid, name, level, speedup, total)
        for sid, name, level, speedup, total in session.execute(query)
    ]


def per_student(
    session: Session, checkpoint: str, scope: Scope
) -> list[tuple[str, int | None, float | None, int, int, datetime]]:
    """(student, best level, best speedup, submissions, late ones, last submission), by name;
    the bests of the on-time submissions unless `scope` is ALL. Aggregated per student id
    first (a scan of ix_submissions_checkpoint_user), then joined to the names: not the other
    way round, which sorted every row by name."""
    done = Submission.status == Status.DONE
    if scope is Scope.ON_TIME:
        done = done & ~Submission.late
    per_user = (
        select(
            Submission.user_id,
            func.max(Submission.level).filter(done).label("level"),
            func.max(Submission.speedup).filter(done).label("speedup"),
            func.count().label("total"),
            func.count().filter(Submission.late).label("late"),
            func.max(Submission.created_at).label("last"),
        )
        .where(Submission.checkpoint == checkpoint)
        .group_by(Submission.user_id)
        .subquery()
    )
    rows = session.execute(
        select(
            User.name,
            per_user.c.level,
            per_user.c.speedup,
            per_user.c.total,
            per_user.c.late,
            per_user.c.last,
        )
        .join(per_user, per_user.c.user_id == User.id)
        .order_by(User.name)
    ).all()
    return [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

"""The leaderboard's queries: `standings` (kept by the database's triggers) and the export's
aggregate of `submissions`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Standing, Status, Submission, User


def gpu_models(session: Session, checkpoint: str) -> list[str]:
    return list(
        session.scalars(
            select(Standing.gpu_model)
            .where(Standing.checkpoint == checkpoint)
            .distinct()
            .order_by(Standing.gpu_model)
        ).all()
    )


def board(
    session: Session, checkpoint: str, model: str, limit: int | None
) -> list[tuple[int, str, int, float | None, int]]:
    """(submission id, student, level, speedup, submissions) best first, in the order of
    ix_standings_rank: no ranking of every graded submission at read time."""
    query = (
        select(
            Standing.submission_id,
            User.name,
            Standing.level,
            Standing.speedup,
            Standing.submissions,
        )
        .join(User, User.id == Standing.user_id)
        .where(Standing.checkpoint == checkpoint, Standing.gpu_model == model)
        .order_by(
            Standing.level.desc(),
            Standing.speedup.desc().nulls_last(),
            Standing.submission_id,
        )
        .limit(limit)
    )
    return [
        (sid, name, level, speedup, total)
        for sid, name, level, speedup, total in session.execute(query)
    ]


def per_student(
    session: Session, checkpoint: str
) -> list[tuple[str, int | None, float | None, int, datetime]]:
    """(student, best level, best speedup, submissions, last submission), by name. Aggregated
    per student id first (an index-only scan of ix_submissions_checkpoint_user), then joined
    to the names: not the other way round, which sorted every row by name."""
    done = Submission.status == Status.DONE
    per_user = (
        select(
            Submission.user_id,
            func.max(Submission.level).filter(done).label("level"),
            func.max(Submission.speedup).filter(done).label("speedup"),
            func.count().label("total"),
            func.max(Submission.created_at).label("last"),
        )
        .where(Submission.checkpoint == checkpoint)
        .group_by(Submission.user_id)
        .subquery()
    )
    rows = session.execute(
        select(User.name, per_user.c.level, per_user.c.speedup, per_user.c.total, per_user.c.last)
        .join(per_user, per_user.c.user_id == User.id)
        .order_by(User.name)
    ).all()
    return [(name, level, speedup, total, last) for name, level, speedup, total, last in rows]

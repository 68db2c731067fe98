"""The leaderboard's queries: `standings` (kept by the database's triggers) and the export's
aggregate of `submissions`."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Scope, Standing, Submission, User


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
) -> list[tuple[int, str, str | None, int, float | None, int, bool]]:
    """(submission id, student, section, level, speedup, submissions, late) best first, in
    the order of ix_standings_rank: no ranking of every graded submission at read time;
    `section`: only its students; late: the best submission was late (a board counting late
    work)."""
    query = (
        select(
            Standing.submission_id,
            User.name,
            User.section,
            Standing.level,
            Standing.speedup,
            Standing.submissions,
            Submission.late,
        )
        .join(User, User.id == Standing.user_id)
        .join(Submission, Submission.id == Standing.submission_id)
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
        (sid, name, sec, level, speedup, total, bool(late))
        for sid, name, sec, level, speedup, total, late in session.execute(query)
    ]

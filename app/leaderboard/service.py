"""Best result per student per GPU model: ranked by level, then speedup. Speedups measured on
different GPU models are never ranked together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Standing, Status, Submission, User


@dataclass
class Entry:
    rank: int
    student: str
    gpu_model: str
    level: int
    speedup: float | None
    submission_id: int
    submissions: int


def best(session: Session, checkpoint: str, limit: int | None = None) -> dict[str, list[Entry]]:
    """The boards of a checkpoint, one per GPU model, best first; `limit`: the top N of each.

    Reads `standings` (kept by the database on every change of a submission) in the order of
    ix_standings_rank: no ranking of every graded submission at read time."""
    boards: dict[str, list[Entry]] = {}
    models = session.scalars(
        select(Standing.gpu_model)
        .where(Standing.checkpoint == checkpoint)
        .distinct()
        .order_by(Standing.gpu_model)
    ).all()
    for model in models:
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
        board = boards.setdefault(model, [])
        for sid, name, level, speedup, total in session.execute(query):
            board.append(Entry(len(board) + 1, name, model, level, speedup, sid, total))
    return boards


@dataclass
class ExportRow:
    student: str
    best_level: int | None
    best_speedup: float | None
    submissions: int
    last_submission: datetime


def export(session: Session, checkpoint: str) -> list[ExportRow]:
    """Aggregated per student id first (an index-only scan of ix_submissions_checkpoint_user),
    then joined to the names: not the other way round, which sorted every row by name."""
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
    return [ExportRow(*r) for r in rows]

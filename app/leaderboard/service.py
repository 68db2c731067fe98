"""Best result per student per GPU model: ranked by level, then speedup. Speedups measured on
different GPU models are never ranked together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, literal, select
from sqlalchemy.orm import Session

from app.models import Status, Submission, User


@dataclass
class Entry:
    rank: int
    student: str
    gpu_model: str
    level: int
    speedup: float | None
    submission_id: int
    submissions: int


def best(session: Session, checkpoint: str) -> dict[str, list[Entry]]:
    # 'cpu' and 'done' are written into the SQL, not bound: a generic plan (psycopg prepares a
    # statement from its fifth run) only uses ix_submissions_leaderboard, whose expression and
    # predicate hold these constants, if the query holds them too.
    gpu = func.coalesce(Submission.gpu_model, literal("cpu", literal_execute=True))
    ranked = (
        select(
            Submission.id,
            Submission.user_id,
            gpu.label("gpu"),
            Submission.level,
            Submission.speedup,
            func.row_number()
            .over(
                partition_by=(Submission.user_id, gpu),
                order_by=(
                    Submission.level.desc(),
                    Submission.speedup.desc().nulls_last(),
                    Submission.id,
                ),
            )
            .label("n"),
        )
        .where(
            Submission.checkpoint == checkpoint,
            Submission.status == literal(Status.DONE.value, literal_execute=True),
            Submission.level.is_not(None),
        )
        .subquery()
    )
    counts = (
        select(Submission.user_id, func.count().label("total"))
        .where(Submission.checkpoint == checkpoint)
        .group_by(Submission.user_id)
        .subquery()
    )
    rows = session.execute(
        select(
            ranked.c.id, User.name, ranked.c.gpu, ranked.c.level, ranked.c.speedup, counts.c.total
        )
        .join(User, User.id == ranked.c.user_id)
        .join(counts, counts.c.user_id == ranked.c.user_id)
        .where(ranked.c.n == 1)
        .order_by(ranked.c.gpu, ranked.c.level.desc(), ranked.c.speedup.desc().nulls_last())
    ).all()
    boards: dict[str, list[Entry]] = {}
    for sid, name, model, level, speedup, total in rows:
        board = boards.setdefault(model, [])
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

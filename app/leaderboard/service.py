"""Best result per student per GPU model: ranked by level, then speedup. Speedups measured on
different GPU models are never ranked together. By default only on-time submissions count
(`Scope.ON_TIME`); late ones too when asked (`Scope.ALL`, `?late=include`)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.checkpoints import service as checkpoints
from app.leaderboard import gradebook, repository
from app.leaderboard.schemas import EntryOut as Entry
from app.models import Scope
from app.settings import Settings


def known(s: Settings, checkpoint: str) -> None:
    """NotFound (404) for a checkpoint that does not exist: never an empty board."""
    checkpoints.get(s, checkpoint)


def listed(s: Settings) -> list[str]:
    """The checkpoints a board can be picked for, by id."""
    return [c.id for c in checkpoints.listed(s)]


def best(
    session: Session,
    checkpoint: str,
    limit: int | None = None,
    scope: Scope = Scope.ON_TIME,
    gpu: str | None = None,
    section: str | None = None,
) -> dict[str, list[Entry]]:
    """The boards of a checkpoint, one per GPU model (`gpu`: that one only), best first;
    `limit`: the top N of each; `section`: its students only. Read from `standings`, kept by
    the database on every change of a submission."""
    boards: dict[str, list[Entry]] = {}
    for model in repository.gpu_models(session, checkpoint, scope):
        if gpu is not None and model != gpu:
            continue
        rows = repository.board(session, checkpoint, model, limit, scope, section)
        if not rows:
            continue
        board = boards.setdefault(model, [])
        for sid, name, sec, level, speedup, total, late in rows:
            board.append(
                Entry(
                    rank=len(board) + 1,
                    student=name,
                    section=sec,
                    late=late,
                    gpu_model=model,
                    level=level,
                    speedup=speedup,
                    submission_id=sid,
                    submissions=total,
                )
            )
    return boards


def gpu_models(session: Session, checkpoint: str) -> list[str]:
    """Every GPU model some submission to the checkpoint was graded on, late or not."""
    return repository.gpu_models(session, checkpoint, Scope.ALL)


def sections(session: Session) -> list[str]:
    return repository.sections(session)


def csv_text(
    session: Session,
    checkpoint: str,
    scope: Scope = Scope.ON_TIME,
    section: str | None = None,
) -> str:
    """One checkpoint's grades as CSV, a line per rostered student (gradebook.py)."""
    return gradebook.checkpoint_csv(session, checkpoint, scope, section)


def course_csv(
    session: Session, s: Settings, scope: Scope = Scope.ON_TIME, section: str | None = None
) -> str:
    """The course's gradebook: every rostered student against every checkpoint listed."""
    return gradebook.course_csv(session, listed(s), scope, section)

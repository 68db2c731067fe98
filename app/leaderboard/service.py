"""Best result per student per GPU model: ranked by level, then speedup. Speedups measured on
different GPU models are never ranked together."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.leaderboard import repository
from app.leaderboard.schemas import EntryOut as Entry


def best(session: Session, checkpoint: str, limit: int | None = None) -> dict[str, list[Entry]]:
    """The boards of a checkpoint, one per GPU model, best first; `limit`: the top N of each.
    Read from `standings`, kept by the database on every change of a submission."""
    boards: dict[str, list[Entry]] = {}
    for model in repository.gpu_models(session, checkpoint):
        board = boards.setdefault(model, [])
        for sid, name, level, speedup, total in repository.board(session, checkpoint, model, limit):
            board.append(
                Entry(
                    rank=len(board) + 1,
                    student=name,
                    gpu_model=model,
                    level=level,
                    speedup=speedup,
                    submission_id=sid,
                    submissions=total,
                )
            )
    return boards


@dataclass
class ExportRow:
    student: str
    best_level: int | None
    best_speedup: float | None
    submissions: int
    last_submission: datetime


def export(session: Session, checkpoint: str) -> list[ExportRow]:
    return [ExportRow(*r) for r in repository.per_student(session, checkpoint)]


def csv_text(session: Session, checkpoint: str) -> str:
    """The grades as CSV, one line per student who submitted."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["student", "best_level", "best_speedup", "submissions", "last_submission"])
    for r in export(session, checkpoint):
        w.writerow(
            [
                r.student,
                "" if r.best_level is None else r.best_level,
                "" if r.best_speedup is None else f"{r.best_speedup:.4f}",
                r.submissions,
                r.last_submission.isoformat(),
            ]
        )
    return buf.getvalue()

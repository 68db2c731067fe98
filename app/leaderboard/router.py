from __future__ import annotations

import csv
import io
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from sqlalchemy.orm import Session

from app.deps import SessionDep, require
from app.leaderboard import service
from app.models import Role, User

router = APIRouter(tags=["leaderboard"])
Staff = require(Role.INSTRUCTOR, Role.ADMIN)


@router.get("/api/leaderboard/{checkpoint}")
def leaderboard(checkpoint: str, session: SessionDep, _: User = Staff) -> dict[str, Any]:
    boards = service.best(session, checkpoint)
    return {
        "checkpoint": checkpoint,
        "boards": {m: [asdict(e) for e in entries] for m, entries in boards.items()},
    }


def csv_text(session: Session, checkpoint: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["student", "best_level", "best_speedup", "submissions", "last_submission"])
    for r in service.export(session, checkpoint):
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


@router.get("/api/export/{checkpoint}.csv")
def export(checkpoint: str, session: SessionDep, _: User = Staff) -> Response:
    return Response(
        csv_text(session, checkpoint),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{checkpoint}.csv"'},
    )

from __future__ import annotations

import csv
import io
import re
from dataclasses import asdict
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import Response
from sqlalchemy.orm import Session

from app.deps import SessionDep, require
from app.errors import documented
from app.leaderboard import service
from app.models import Role, User

router = APIRouter(tags=["leaderboard"], responses=documented(400, 401, 403, 422, 503))
Staff = require(Role.INSTRUCTOR, Role.ADMIN)


@router.get("/api/leaderboard/{checkpoint}")
def leaderboard(
    checkpoint: str,
    session: SessionDep,
    _: User = Staff,
    limit: Annotated[int | None, Query(ge=1, le=100_000, description="top N a board")] = None,
) -> dict[str, Any]:
    boards = service.best(session, checkpoint, limit)
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


def attachment(filename: str) -> str:
    """A Content-Disposition header for any name: headers are Latin-1, and a quote would end
    the parameter, so an ASCII fallback plus the exact name in RFC 5987 form."""
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


@router.get(
    "/api/export/{checkpoint}.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per student."}},
)
def export(checkpoint: str, session: SessionDep, _: User = Staff) -> Response:
    return Response(
        csv_text(session, checkpoint),
        media_type="text/csv",
        headers={"Content-Disposition": attachment(f"{checkpoint}.csv")},
    )

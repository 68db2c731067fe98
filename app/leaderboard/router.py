from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from app.deps import SessionDep, Staff
from app.errors import documented
from app.leaderboard import overrides, service
from app.leaderboard.schemas import LeaderboardOut
from app.models import User
from app.responses import csv_download

router = APIRouter(tags=["leaderboard"], responses=documented(400, 401, 403, 422, 503))


@router.get("/api/leaderboard/{checkpoint}", response_model=LeaderboardOut)
def leaderboard(
    checkpoint: str,
    session: SessionDep,
    _: User = Staff,
    limit: Annotated[int | None, Query(ge=1, le=100_000, description="top N a board")] = None,
) -> LeaderboardOut:
    boards = service.best(session, checkpoint, limit)
    return LeaderboardOut(checkpoint=checkpoint, boards=overrides.shown(session, boards))


@router.get(
    "/api/export/{checkpoint}.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per student."}},
)
def export(checkpoint: str, session: SessionDep, _: User = Staff) -> Response:
    return csv_download(service.csv_text(session, checkpoint), f"{checkpoint}.csv")

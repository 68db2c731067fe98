from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from app.deps import Filter, SessionDep, SettingsDep, Staff
from app.errors import documented
from app.leaderboard import overrides, service
from app.leaderboard.schemas import LeaderboardOut
from app.models import Scope, User
from app.responses import csv_download

router = APIRouter(tags=["leaderboard"], responses=documented(400, 401, 403, 404, 422, 503))

Late = Annotated[
    Literal["exclude", "include"],
    Query(description="exclude (the default): each student's best on-time result"),
]


def scope(late: str) -> Scope:
    return Scope.ALL if late == "include" else Scope.ON_TIME


@router.get("/api/leaderboard/{checkpoint}", response_model=LeaderboardOut)
def leaderboard(
    checkpoint: str,
    session: SessionDep,
    s: SettingsDep,
    _: User = Staff,
    limit: Annotated[int | None, Query(ge=1, le=100_000, description="top N a board")] = None,
    late: Late = "exclude",
    gpu: Filter = None,
    section: Filter = None,
) -> LeaderboardOut:
    """404 for a checkpoint that does not exist."""
    service.known(s, checkpoint)
    boards = service.best(session, checkpoint, limit, scope(late), gpu, section)
    return LeaderboardOut(checkpoint=checkpoint, late=late, boards=overrides.shown(session, boards))


@router.get(
    "/api/export/{checkpoint}.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per student."}},
)
def export(
    checkpoint: str, session: SessionDep, s: SettingsDep, _: User = Staff, late: Late = "exclude"
) -> Response:
    service.known(s, checkpoint)
    return csv_download(service.csv_text(session, checkpoint, scope(late)), f"{checkpoint}.csv")

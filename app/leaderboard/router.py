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
    checkpoint: str,
    session: SessionDep,
    s: SettingsDep,
    _: User = Staff,
    late: Late = "exclude",
    section: Filter = None,
) -> Response:
    """A line per rostered student (of one section): email, section, best level in force,
    speedup, submissions, late ones, the last one's time, marks (override, late, late only,
    none)."""
    service.known(s, checkpoint)
    text = service.csv_text(session, checkpoint, scope(late), section)
    return csv_download(text, f"{checkpoint}.csv")


@router.get(
    "/api/export.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per student."}},
)
def gradebook(
    session: SessionDep,
    s: SettingsDep,
    _: User = Staff,
    late: Late = "exclude",
    section: Filter = None,
) -> Response:
    """The course's gradebook: a line per rostered student (of one section), their email and
    section, the level in force and the marks for each checkpoint, the last submission."""
    return csv_download(service.course_csv(session, s, scope(late), section), "gradebook.csv")

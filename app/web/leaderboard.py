"""The instructors' pages: the leaderboard with its pending level-4 evidence, the grades CSV."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.deps import SessionDep
from app.leaderboard import overrides
from app.leaderboard import service as boards
from app.regrades import service as regrades
from app.responses import csv_download
from app.submissions import grading_review as review
from app.users.service import is_staff
from app.web import plots
from app.web.auth import signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


@router.get("/leaderboard/{checkpoint}")
def leaderboard(checkpoint: str, request: Request, db: SessionDep) -> Response:
    user, data = signed_in(request, db)
    if not is_staff(user):
        return page(
            request, "error.html", 403, user=user, error="The leaderboard is for instructors."
        )
    board = overrides.shown(db, boards.best(db, checkpoint))
    speeds = [e.speedup for entries in board.values() for e in entries if e.speedup]
    return page(
        request,
        "leaderboard.html",
        user=user,
        csrf=data["csrf"],
        checkpoint=checkpoint,
        boards=board,
        pending=review.pending_evidence(db),
        regrades=regrades.listed(db, checkpoint, 5),
        plot=plots.distribution(speeds, f"Speedups on {checkpoint}") if speeds else None,
    )


@router.get("/leaderboard/{checkpoint}/grades.csv")
def leaderboard_csv(checkpoint: str, request: Request, db: SessionDep) -> Response:
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Grades are for instructors.")
    return csv_download(boards.csv_text(db, checkpoint), f"{checkpoint}.csv")

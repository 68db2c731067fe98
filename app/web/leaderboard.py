"""The instructors' pages: the leaderboard with its checkpoint picker and filters (GPU model,
section, late work) and its pending level-4 evidence, the grades CSV."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.deps import Filter, SessionDep
from app.leaderboard import overrides
from app.leaderboard import service as boards
from app.models import Scope, User
from app.regrades import service as regrades
from app.responses import csv_download
from app.settings import get_settings
from app.submissions import grading_review as review
from app.users.service import is_staff
from app.web import plots
from app.web.auth import signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _staff(request: Request, db: SessionDep) -> tuple[User | None, dict[str, str]]:
    user, data = signed_in(request, db)
    return (user if is_staff(user) else None), data


@router.get("/leaderboard")
def leaderboard_pick(
    request: Request,
    db: SessionDep,
    checkpoint: Filter = None,
    gpu: Filter = None,
    section: Filter = None,
    late: Filter = None,
) -> Response:
    """The picker's form lands here: on to that checkpoint's board (the first listed if none)."""
    user, _ = _staff(request, db)
    if user is None:
        return page(
            request, "error.html", 403, user=None, error="The leaderboard is for instructors."
        )
    listed = boards.listed(get_settings())
    target = checkpoint or (listed[0] if listed else "c3a-softmax")
    query = {k: v for k, v in (("gpu", gpu), ("section", section), ("late", late)) if v}
    return RedirectResponse(
        f"/leaderboard/{quote(target, safe='')}" + (f"?{urlencode(query)}" if query else ""),
        303,
    )


@router.get("/leaderboard/{checkpoint}")
def leaderboard(
    checkpoint: str,
    request: Request,
    db: SessionDep,
    gpu: Filter = None,
    section: Filter = None,
    late: Filter = None,
) -> Response:
    user, data = _staff(request, db)
    if user is None:
        return page(
            request, "error.html", 403, user=None, error="The leaderboard is for instructors."
        )
    boards.known(get_settings(), checkpoint)
    scope = Scope.ALL if late == "include" else Scope.ON_TIME
    board = boards.best(db, checkpoint, None, scope, gpu or None, section or None)
    board = overrides.shown(db, board)
    speeds = [e.speedup for entries in board.values() for e in entries if e.speedup]
    return page(
        request,
        "leaderboard.html",
        user=user,
        csrf=data["csrf"],
        checkpoint=checkpoint,
        checkpoints=boards.listed(get_settings()),
        gpus=boards.gpu_models(db, checkpoint),
        sections=boards.sections(db),
        chosen={"gpu": gpu or "", "section": section or "", "late": late == "include"},
        boards=board,
        pending=review.pending_evidence(db),
        regrades=regrades.listed(db, checkpoint, 5),
        plot=plots.distribution(speeds, f"Speedups on {checkpoint}") if speeds else None,
    )


@router.get("/leaderboard/{checkpoint}/grades.csv")
def leaderboard_csv(
    checkpoint: str,
    request: Request,
    db: SessionDep,
    late: Filter = None,
    section: Filter = None,
) -> Response:
    user, _ = _staff(request, db)
    if user is None:
        return page(request, "error.html", 403, user=None, error="Grades are for instructors.")
    boards.known(get_settings(), checkpoint)
    scope = Scope.ALL if late == "include" else Scope.ON_TIME
    return csv_download(boards.csv_text(db, checkpoint, scope, section), f"{checkpoint}.csv")


@router.get("/gradebook.csv")
def gradebook_csv(
    request: Request, db: SessionDep, late: Filter = None, section: Filter = None
) -> Response:
    """The course's gradebook (every rostered student, a column per checkpoint)."""
    user, _ = _staff(request, db)
    if user is None:
        return page(request, "error.html", 403, user=None, error="Grades are for instructors.")
    scope = Scope.ALL if late == "include" else Scope.ON_TIME
    return csv_download(boards.course_csv(db, get_settings(), scope, section), "gradebook.csv")

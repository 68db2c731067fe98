"""The instructors' similarity page: pairs of students with alike submissions to a checkpoint,
the shared regions side by side."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.core.errors import NotFound
from app.deps import SessionDep, SettingsDep
from app.responses import csv_download
from app.similarity import service
from app.users.service import is_staff
from app.web.auth import signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


@router.get("/similarity/{checkpoint}")
def similarity(checkpoint: str, request: Request, db: SessionDep, s: SettingsDep) -> Response:
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(
            request, "error.html", 403, user=user, error="Similarity reports are for instructors."
        )
    try:
        report = service.report(db, s, checkpoint)
        handouts = service.handout_names(s, checkpoint)
    except NotFound as exc:
        return page(request, "error.html", 404, user=user, error=exc.message)
    return page(
        request,
        "similarity.html",
        user=user,
        checkpoint=checkpoint,
        report=report,
        handouts=handouts,
    )


@router.get("/similarity/{checkpoint}/summary.csv")
def similarity_csv(checkpoint: str, request: Request, db: SessionDep, s: SettingsDep) -> Response:
    """The summary table as CSV, for the page's link (the API's is for a token)."""
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(
            request, "error.html", 403, user=user, error="Similarity reports are for instructors."
        )
    try:
        text = service.summary_csv(db, s, checkpoint)
    except NotFound as exc:
        return page(request, "error.html", 404, user=user, error=exc.message)
    return csv_download(text, f"similarity-{checkpoint}.csv")

"""The instructors' similarity page: pairs of students with alike submissions to a checkpoint,
the shared regions side by side."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.core.errors import NotFound
from app.deps import SessionDep, SettingsDep
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
    except NotFound as exc:
        return page(request, "error.html", 404, user=user, error=exc.message)
    return page(request, "similarity.html", user=user, checkpoint=checkpoint, report=report)

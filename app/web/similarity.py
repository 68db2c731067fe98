"""The instructors' similarity page: the summary of the highest pairs (and its CSV), the pairs
of students with alike submissions to a checkpoint with the shared regions side by side, and
the form that registers or removes a handout as base text (the same service as the API's)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import RedirectResponse, Response

from app.core.errors import DomainError, Invalid, NotFound
from app.core.limits import MAX_SOURCE_BYTES
from app.deps import SessionDep, SettingsDep
from app.errors import ApiError, as_api_error
from app.models import User
from app.responses import csv_download
from app.settings import Settings
from app.similarity import service
from app.similarity.schemas import HandoutIn
from app.users.service import is_staff
from app.web.auth import check_csrf, signed_in
from app.web.forms import validated
from app.web.templating import page

router = APIRouter(include_in_schema=False)
REFUSED = "Similarity reports are for instructors."


def _staff(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    user, data = signed_in(request, db)
    if not is_staff(user):
        raise ApiError(403, REFUSED)
    return user, data


def _page(
    request: Request,
    db: SessionDep,
    s: Settings,
    checkpoint: str,
    user: User,
    data: dict[str, Any],
    status: int = 200,
    **ctx: Any,
) -> Response:
    try:
        report = service.report(db, s, checkpoint)
        handouts = service.handout_names(s, checkpoint)
    except NotFound as exc:
        return page(request, "error.html", 404, user=user, error=exc.message)
    return page(
        request,
        "similarity.html",
        status,
        user=user,
        csrf=data["csrf"],
        checkpoint=checkpoint,
        report=report,
        handouts=handouts,
        **ctx,
    )


@router.get("/similarity/{checkpoint}")
def similarity(checkpoint: str, request: Request, db: SessionDep, s: SettingsDep) -> Response:
    user, data = signed_in(request, db)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error=REFUSED)
    return _page(request, db, s, checkpoint, user, data)


@router.get("/similarity/{checkpoint}/summary.csv")
def similarity_csv(checkpoint: str, request: Request, db: SessionDep, s: SettingsDep) -> Response:
    """The summary table as CSV, for the page's link (the API's is for a token)."""
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error=REFUSED)
    try:
        text = service.summary_csv(db, s, checkpoint)
    except NotFound as exc:
        return page(request, "error.html", 404, user=user, error=exc.message)
    return csv_download(text, f"similarity-{checkpoint}.csv")


@router.post("/similarity/{checkpoint}/handouts")
async def add_handout(
    checkpoint: str,
    request: Request,
    db: SessionDep,
    s: SettingsDep,
    csrf: Annotated[str, Form()],
    name: Annotated[str, Form()] = "",
    upload: UploadFile | None = None,
) -> Response:
    """Register (or replace) a handout from an uploaded file, named as the file unless a name
    is typed; a refusal is the page again with the reason, nothing stored."""
    user, data = _staff(request, db)
    check_csrf(data, csrf)
    try:
        if upload is None or not upload.filename:
            raise Invalid("choose the handout's file")
        raw = await upload.read(MAX_SOURCE_BYTES + 1)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Invalid(f"{upload.filename} is not UTF-8 text") from exc
        body = validated(HandoutIn, text=text)
        service.put_handout(s, checkpoint, name.strip() or upload.filename, body.text)
    except (DomainError, ApiError) as exc:
        err = as_api_error(exc) if isinstance(exc, DomainError) else exc
        return _page(request, db, s, checkpoint, user, data, err.status, error=err.message)
    return RedirectResponse(f"/similarity/{checkpoint}#handouts", 303)


@router.post("/similarity/{checkpoint}/handouts/{name}/remove")
def remove_handout(
    checkpoint: str,
    name: str,
    request: Request,
    db: SessionDep,
    s: SettingsDep,
    csrf: Annotated[str, Form()],
) -> Response:
    user, data = _staff(request, db)
    check_csrf(data, csrf)
    try:
        service.remove_handout(s, checkpoint, name)
    except DomainError as exc:
        err = as_api_error(exc)
        return _page(request, db, s, checkpoint, user, data, err.status, error=err.message)
    return RedirectResponse(f"/similarity/{checkpoint}#handouts", 303)

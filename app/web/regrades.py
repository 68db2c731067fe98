"""Staff's regrade pages: the buttons (all of a checkpoint, from the checkpoints page and the
leaderboard; one submission, from its page) and a regrade's progress, followed live (htmx
polls its status part every second; without JavaScript the page reloads itself), with each
of its submissions and its new result."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.core.errors import DomainError
from app.deps import RowId, SessionDep
from app.errors import as_api_error
from app.models import User
from app.regrades import service
from app.settings import get_settings
from app.users.service import is_staff
from app.web.auth import check_csrf, signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _start(
    request: Request, db: SessionDep, csrf: str, what: service.Target, back: str
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors regrade.")
    try:
        p = service.start(db, user, get_settings(), what)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "error.html", err.status, user=user, error=err.message)
    return RedirectResponse(back if back.startswith("/") else f"/regrades/{p.id}", 303)


@router.post("/checkpoints/{checkpoint_id}/regrade")
def regrade_checkpoint(
    checkpoint_id: str, request: Request, db: SessionDep, csrf: Annotated[str, Form()]
) -> Response:
    return _start(request, db, csrf, service.Target(checkpoint=checkpoint_id), "")


@router.post("/submissions/{sid}/regrade")
def regrade_submission(
    sid: RowId, request: Request, db: SessionDep, csrf: Annotated[str, Form()]
) -> Response:
    return _start(request, db, csrf, service.Target(submission=sid), f"/submissions/{sid}")


def _progress(request: Request, db: SessionDep, rid: int, template: str, user: User) -> Response:
    try:
        p = service.get(db, rid)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "error.html", err.status, user=user, error=err.message)
    return page(request, template, user=user, regrade=p, members=service.members(db, rid))


@router.get("/regrades/{rid}")
def regrade_page(rid: RowId, request: Request, db: SessionDep) -> Response:
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Regrades are for instructors.")
    return _progress(request, db, rid, "regrade.html", user)


@router.get("/regrades/{rid}/status")
def regrade_status(rid: RowId, request: Request, db: SessionDep) -> Response:
    """The live part: polled by htmx every second until every submission has its result."""
    user, _ = signed_in(request, db)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Regrades are for instructors.")
    return _progress(request, db, rid, "_regrade.html", user)

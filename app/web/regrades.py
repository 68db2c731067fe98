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
from app.web.auth import check_csrf, local_path, signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _start(
    request: Request,
    db: SessionDep,
    csrf: str,
    what: service.Target,
    how: service.How,
    back: str = "",
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors regrade.")
    try:
        p = service.start(db, user, get_settings(), what, how)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "error.html", err.status, user=user, error=err.message)
    return RedirectResponse(local_path(back, f"/regrades/{p.id}"), 303)


Box = Annotated[str, Form()]


def _how(force: str, clear_overrides: str) -> service.How:
    return service.How(force=bool(force), carry_overrides=not clear_overrides)


@router.post("/checkpoints/{checkpoint_id}/regrade")
def regrade_checkpoint(
    checkpoint_id: str,
    request: Request,
    db: SessionDep,
    csrf: Box,
    force: Box = "",
    clear_overrides: Box = "",
    confirm: Box = "",
    back: Box = "",
) -> Response:
    """Every graded submission of a checkpoint: asked first (how many, with which version,
    what happens to the overrides), started only from the confirmation's own form."""
    what = service.Target(checkpoint=checkpoint_id)
    how = _how(force, clear_overrides)
    if confirm != "yes":
        return _confirm_all(request, db, csrf, what, how, local_path(back, "/admin/checkpoints"))
    return _start(request, db, csrf, what, how)


def _confirm_all(
    request: Request, db: SessionDep, csrf: str, what: service.Target, how: service.How, back: str
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors regrade.")
    try:
        n, version = service.preview(db, get_settings(), what, how)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "error.html", err.status, user=user, error=err.message)
    carried = (
        "The overrides in force are cleared: every level becomes the grader's again."
        if not how.carry_overrides
        else "Each override in force is carried to the new result."
    )
    return page(
        request,
        "confirm.html",
        user=user,
        csrf=data["csrf"],
        title=f"Regrade all of {what.checkpoint}?",
        question=f"{n} graded submission{'s' if n != 1 else ''} of {what.checkpoint} will be "
        f"graded again with version {version[:12]}, the one installed now.",
        consequences=[
            "Each leaves the board while it is regraded; its level changes when its new "
            "grading finishes.",
            "Every earlier result is kept in the submission's history.",
            carried,
        ],
        action=f"/checkpoints/{what.checkpoint}/regrade",
        fields={
            k: "yes"
            for k, on in (("force", how.force), ("clear_overrides", not how.carry_overrides))
            if on
        },
        yes=f"Regrade {n} submission{'s' if n != 1 else ''}",
        back=back,
    )


@router.post("/submissions/{sid}/regrade")
def regrade_submission(
    sid: RowId,
    request: Request,
    db: SessionDep,
    csrf: Box,
    force: Box = "",
    clear_overrides: Box = "",
) -> Response:
    what, back = service.Target(submission=sid), f"/submissions/{sid}"
    return _start(request, db, csrf, what, _how(force, clear_overrides), back)


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

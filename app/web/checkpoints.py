"""The admins' page of checkpoints: the list (open or close one), the GPU workers and whether
each can profile, the form that adds one, and
its validation followed live (htmx polls the status part every second; without JavaScript the
page reloads itself until the validation is done)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.checkpoints import registry, service, validations
from app.checkpoints.schemas import OpenIn, ValidationOut
from app.core.errors import DomainError, TooLarge
from app.core.limits import MAX_CHECKPOINT_FILE
from app.deps import RowId, SessionDep
from app.errors import ApiError, as_api_error
from app.health import service as health
from app.models import User
from app.settings import get_settings
from app.web.auth import check_csrf, is_admin, signed_in
from app.web.forms import validated
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _admin(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    user, data = signed_in(request, db)
    if not is_admin(user):
        raise ApiError(403, "Checkpoints are managed by admins.")
    return user, data


def _listing() -> list[tuple[Any, bool]]:
    return [(c, registry.is_builtin(c)) for c in service.listed(get_settings())]


def _admin_page(
    request: Request, user: User, data: dict[str, Any], status: int = 200, **ctx: Any
) -> HTMLResponse:
    return page(
        request, "admin.html", status, user=user, csrf=data["csrf"], checkpoints=_listing(), **ctx
    )


@router.get("/admin/checkpoints")
def admin_page(request: Request, db: SessionDep) -> Response:
    try:
        user, data = _admin(request, db)
    except ApiError as exc:
        return page(request, "error.html", exc.status, user=None, error=exc.message)
    return _admin_page(request, user, data, gpu_workers=health.gpu_workers(db))


async def _text(upload: UploadFile) -> str:
    raw = await upload.read(MAX_CHECKPOINT_FILE + 1)
    if len(raw) > MAX_CHECKPOINT_FILE:
        raise TooLarge(f"{upload.filename}: a checkpoint's file is at most 256 KiB")
    return raw.decode("utf-8")


@router.post("/admin/checkpoints")
async def admin_create(
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    definition: UploadFile,
    problem: UploadFile,
    reference: UploadFile,
    wrong: list[UploadFile],
    starter: UploadFile | None = None,
) -> Response:
    """Refused at once if the files cannot make a checkpoint; else validated by a worker,
    followed on the validation's page."""
    user, data = _admin(request, db)
    check_csrf(data, csrf)
    try:
        texts = (await _text(definition), await _text(problem), await _text(reference))
        start = await _text(starter) if starter and starter.filename else None
        bad = {u.filename or "x.py": await _text(u) for u in wrong if u.filename}
        started = validations.start(db, user, get_settings(), (*texts, start, bad))
    except UnicodeDecodeError:
        return _admin_page(request, user, data, 400, error="Every file must be UTF-8 text.")
    except DomainError as exc:
        err = as_api_error(exc)
        return _admin_page(request, user, data, err.status, error=err.message)
    if started.row is None:
        said = (
            f"{started.checkpoint}: the same files as the installed version "
            f"{started.version[:12]}; no new version, nothing to validate."
        )
        return _admin_page(request, user, data, notice=said)
    return RedirectResponse(f"/admin/checkpoints/validations/{started.row.id}", 303)


@router.get("/admin/checkpoints/validations/{vid}")
def validation_page(vid: RowId, request: Request, db: SessionDep) -> Response:
    user, data = _admin(request, db)
    v = ValidationOut.of(validations.get(db, vid))
    return _admin_page(request, user, data, validation=v)


@router.get("/admin/checkpoints/validations/{vid}/status")
def validation_status(vid: RowId, request: Request, db: SessionDep) -> Response:
    """The live part: polled by htmx every second until the validation is done."""
    _, data = _admin(request, db)
    v = ValidationOut.of(validations.get(db, vid))
    return page(
        request, "_validation.html", validation=v, checkpoints=_listing(), csrf=data["csrf"]
    )


@router.post("/admin/checkpoints/{checkpoint_id}/open")
def admin_open(
    checkpoint_id: str,
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    open_: Annotated[str, Form(alias="open")],
) -> Response:
    user, data = _admin(request, db)
    check_csrf(data, csrf)
    body = validated(OpenIn, open=open_)  # the API's rule: yes/no, true/false, 1/0
    try:
        service.set_open(get_settings(), checkpoint_id, body.open)
    except DomainError as exc:
        err = as_api_error(exc)
        return _admin_page(request, user, data, err.status, error=err.message)
    return RedirectResponse("/admin/checkpoints", 303)

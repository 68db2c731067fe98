"""The instructors' page of deadlines: every checkpoint's effective deadline, shown in its
zone with where it comes from, and a form that sets (overrides the definition's) or clears
it. The same service as the API's (app/deadlines)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.checkpoints import service as checkpoints
from app.core.errors import DomainError
from app.deadlines import service as deadlines
from app.deadlines.schemas import DeadlineIn
from app.deps import SessionDep
from app.errors import ApiError, as_api_error
from app.models import User
from app.settings import get_settings
from app.users.service import is_staff
from app.web.auth import check_csrf, signed_in
from app.web.forms import validated
from app.web.templating import page
from grader import DeadlineSpec

router = APIRouter(include_in_schema=False)


def _staff(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    user, data = signed_in(request, db)
    if not is_staff(user):
        raise ApiError(403, "Deadlines are set by instructors.")
    return user, data


def typed(d: DeadlineSpec | None) -> dict[str, str]:
    """The form's fields as the deadline's times read in its zone (what an instructor typed),
    so that the form shows the deadline in force, ready to be moved."""
    if d is None:
        return {"opens": "", "due": "", "late_until": ""}
    tz = ZoneInfo(d.timezone)

    def local(t: datetime | None) -> str:
        return "" if t is None else t.astimezone(tz).strftime("%Y-%m-%dT%H:%M:%S")

    return {"opens": local(d.opens), "due": local(d.due), "late_until": local(d.late_until)}


def _page(
    request: Request,
    db: SessionDep,
    user: User,
    data: dict[str, Any],
    status: int = 200,
    **ctx: Any,
) -> HTMLResponse:
    rows = []
    for cp in checkpoints.listed(get_settings()):
        d = deadlines.effective(db, cp)
        rows.append((cp, d, deadlines.source(db, cp), typed(d)))
    return page(request, "deadlines.html", status, user=user, csrf=data["csrf"], rows=rows, **ctx)


@router.get("/deadlines")
def deadlines_page(request: Request, db: SessionDep) -> Response:
    user, data = _staff(request, db)
    return _page(request, db, user, data)


@router.post("/deadlines/{checkpoint_id}")
def set_deadline(
    checkpoint_id: str,
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    due: Annotated[str, Form()] = "",
    opens: Annotated[str, Form()] = "",
    late_until: Annotated[str, Form()] = "",
    policy: Annotated[str, Form()] = "refuse",
    timezone: Annotated[str, Form()] = "UTC",
    clear: Annotated[str, Form()] = "",
) -> Response:
    """Set (or, with `clear`, clear) a checkpoint's deadline; a bad one is the page again with
    the reason, nothing changed."""
    user, data = _staff(request, db)
    check_csrf(data, csrf)
    try:
        cp = checkpoints.get(get_settings(), checkpoint_id)
        if clear:
            deadlines.clear(db, cp)
        else:
            fields = {"due": due or None, "opens": opens or None, "late_until": late_until or None}
            body = validated(DeadlineIn, **fields, policy=policy, timezone=timezone or "UTC")
            deadlines.set_deadline(db, user, cp, deadlines.parse(body.model_dump()))
    except (DomainError, ApiError) as exc:
        err = as_api_error(exc) if isinstance(exc, DomainError) else exc
        return _page(request, db, user, data, err.status, error=err.message)
    return RedirectResponse("/deadlines", 303)

"""Staff's page of accounts: the list by section, a roster upload that shows each new
account's invite link, and disable, enable and reset (which shows the new link)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import RedirectResponse, Response

from app.core.errors import DomainError
from app.deps import SessionDep
from app.errors import ApiError, as_api_error
from app.models import User
from app.settings import get_settings
from app.users import roster, service
from app.users.schemas import RosterIn
from app.users.signin import invite_link
from app.web.auth import check_csrf, signed_in
from app.web.forms import validated
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _staff(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    user, data = signed_in(request, db)
    if not service.is_staff(user):
        raise ApiError(403, "Accounts are managed by instructors and admins.")
    return user, data


def _base(request: Request) -> str:
    return get_settings().public_url or str(request.base_url)


def _users_page(
    request: Request, db: SessionDep, section: str | None = None, status: int = 200, **ctx: Any
) -> Response:
    user, data = _staff(request, db)
    everyone = service.listed(db, user)
    sections = sorted({u.section for u in everyone if u.section})
    shown = [u for u in everyone if section is None or u.section == section]
    return page(
        request,
        "users.html",
        status,
        user=user,
        csrf=data["csrf"],
        users=shown,
        sections=sections,
        section=section,
        invite_hours=get_settings().invite_hours,
        **ctx,
    )


@router.get("/users")
def users_page(request: Request, db: SessionDep, section: str | None = None) -> Response:
    return _users_page(request, db, section or None)


@router.post("/users/import")
async def import_roster(
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    roster_file: UploadFile | None = None,
    text: Annotated[str, Form()] = "",
) -> Response:
    """All or nothing; the new accounts' links are shown on the page that comes back."""
    user, data = _staff(request, db)
    check_csrf(data, csrf)
    filename = "roster.csv"
    try:
        if roster_file is not None and roster_file.filename:
            filename = roster_file.filename
            raw = await roster_file.read(roster.MAX_BYTES + 1)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                return _users_page(request, db, None, 400, error=f"{filename} is not UTF-8 text")
        body = validated(RosterIn, csv=text, filename=filename)  # the API's caps
        imported = roster.run(db, user, body.csv, get_settings(), body.filename)
    except ApiError as exc:
        return _users_page(request, db, None, exc.status, error=exc.message)
    except roster.RosterError as exc:
        return _users_page(request, db, None, 400, error=exc.headline, problems=exc.problems)
    except DomainError as exc:
        err = as_api_error(exc)
        return _users_page(request, db, None, err.status, error=err.message)
    return _users_page(
        request, db, None, imported=roster.summary(imported, _base(request), get_settings())
    )


@router.post("/users/{name}/{action}")
def manage(
    name: str,
    action: str,
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    confirm: Annotated[str, Form()] = "",
) -> Response:
    """Disable, enable, or reset (asked first: it cannot be undone)."""
    user, data = _staff(request, db)
    check_csrf(data, csrf)
    try:
        if action == "reset" and confirm != "yes":
            target = service.managed(db, user, name)
            return page(
                request,
                "confirm.html",
                user=user,
                csrf=data["csrf"],
                title=f"Reset {target.name}?",
                question=f"Reset the account {target.name} ({target.role}): it cannot be undone.",
                consequences=[
                    "Their password, every API token and every signed-in session stop working "
                    "at once.",
                    "A new invite link is shown once, on the next page: they set a new "
                    "password with it.",
                    "Their submissions and grades are kept.",
                ],
                action=f"/users/{quote(target.name)}/reset",
                fields={},
                yes=f"Reset {target.name}",
                back="/users",
            )
        if action == "reset":
            target, token = service.reset(db, user, name, get_settings())
            return _users_page(
                request, db, None, reset=(target.name, invite_link(_base(request), token))
            )
        if action not in ("disable", "enable"):
            return _users_page(request, db, None, 404, error=f"no action '{action}'")
        service.set_disabled(db, user, name, action == "disable")
    except DomainError as exc:
        err = as_api_error(exc)
        return _users_page(request, db, None, err.status, error=err.message)
    return RedirectResponse("/users", 303)

"""Signing in and out (name or email and password; or an API token, for accounts made with
`kgrade users add`), the invite link that sets a password, and a user's own page: their
named API tokens (made and revoked here) and their password."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.core.errors import DomainError
from app.deps import RowId, SessionDep
from app.errors import as_api_error
from app.models import User
from app.settings import get_settings
from app.users import service as users
from app.users import signin as accounts
from app.users import tokens
from app.web import session
from app.web.auth import check_csrf, signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _signed_in_as(user: User) -> Response:
    resp = RedirectResponse("/", 303)
    session.start(resp, user.id, user.session_version)
    return resp


@router.get("/signin")
def signin_page(request: Request) -> HTMLResponse:
    return page(request, "signin.html", user=None)


@router.post("/signin")
def signin(
    request: Request,
    db: SessionDep,
    login: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    token: Annotated[str, Form()] = "",
) -> Response:
    """A wrong password is recorded (the brute-force limits), so this answers, never raises."""
    if token.strip():
        user = users.by_token(db, token.strip())
        if user is None or not users.is_active(user):
            error = "That token is not valid." if user is None else "This account is disabled."
            return page(request, "signin.html", 401, user=None, error=error)
        return _signed_in_as(user)
    address = request.client.host if request.client else "-"
    try:
        found = accounts.authenticate(db, login, password, address, get_settings())
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "signin.html", err.status, user=None, error=err.message, login=login)
    if found is None:
        error = f"{accounts.WRONG[0].upper()}{accounts.WRONG[1:]}."
        return page(request, "signin.html", 401, user=None, error=error, login=login)
    return _signed_in_as(found)


@router.post("/signout")
def signout() -> Response:
    resp = RedirectResponse("/signin", 303)
    session.end(resp)
    return resp


def _invite_page(
    request: Request, db: SessionDep, token: str, status: int = 200, **ctx: Any
) -> Response:
    try:
        _, user = accounts.open_invite(db, token)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "invite.html", err.status, user=None, error=err.message, invitee=None)
    return page(request, "invite.html", status, user=None, invitee=user, token=token, **ctx)


@router.get("/invite/{token}")
def invite_page(token: str, request: Request, db: SessionDep) -> Response:
    return _invite_page(request, db, token, minimum=accounts.MIN_PASSWORD)


@router.post("/invite/{token}")
def invite(
    token: str,
    request: Request,
    db: SessionDep,
    password: Annotated[str, Form()],
    confirm: Annotated[str, Form()],
) -> Response:
    """Sets the password once (the link is then void) and signs in. The link itself is the
    form's proof: it is a secret only its owner has (no session yet to hold a CSRF token)."""
    try:
        user = accounts.redeem(db, token, password, confirm)
    except DomainError as exc:
        err = as_api_error(exc)
        return _invite_page(
            request, db, token, err.status, error=err.message, minimum=accounts.MIN_PASSWORD
        )
    return _signed_in_as(user)


def _account(request: Request, db: SessionDep, status: int = 200, **ctx: Any) -> Response:
    user, data = signed_in(request, db)
    return page(
        request,
        "account.html",
        status,
        user=user,
        csrf=data["csrf"],
        tokens=tokens.listed(db, user),
        minimum=accounts.MIN_PASSWORD,
        **ctx,
    )


@router.get("/account")
def account(request: Request, db: SessionDep) -> Response:
    return _account(request, db)


@router.post("/account/tokens")
def create_token(
    request: Request, db: SessionDep, csrf: Annotated[str, Form()], name: Annotated[str, Form()]
) -> Response:
    """The new token is shown on the page this once."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    try:
        row, text = tokens.create(db, user, name)
    except DomainError as exc:
        err = as_api_error(exc)
        return _account(request, db, err.status, error=err.message)
    return _account(
        request,
        db,
        created=(row.name, text),
        url=get_settings().public_url or str(request.base_url),
    )


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(
    token_id: RowId, request: Request, db: SessionDep, csrf: Annotated[str, Form()]
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    tokens.revoke(db, user, token_id)
    return RedirectResponse("/account", 303)


@router.post("/account/password")
def change_password(
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    current: Annotated[str, Form()],
    password: Annotated[str, Form()],
    confirm: Annotated[str, Form()],
) -> Response:
    """A new password ends every other session; this one goes on with a new cookie."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    try:
        accounts.change_password(db, user, current, password, confirm)
    except DomainError as exc:
        err = as_api_error(exc)
        return _account(request, db, err.status, error=err.message)
    resp = RedirectResponse("/account?changed=1", 303)
    session.start(resp, user.id, user.session_version)
    return resp

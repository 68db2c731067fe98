"""Signing in and out (name or email and password; or an API token, for accounts made with
`kgrade users add`), the invite link that sets a password, and a user's own page: their
named API tokens (made and revoked here) and their password."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.core.errors import DomainError
from app.core.limits import MAX_LOGIN, MAX_TOKEN_TEXT
from app.deps import RowId, SessionDep
from app.errors import ApiError, as_api_error
from app.models import User
from app.settings import get_settings
from app.users import service as users
from app.users import signin as accounts
from app.users import tokens, websessions
from app.users.schemas import TokenIn
from app.web import session
from app.web.auth import check_csrf, signed_in
from app.web.forms import validated
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _signed_in_as(request: Request, db: SessionDep, user: User, to: str = "/") -> Response:
    """A new server-side session and its cookie; the one the browser had (if any) ends."""
    _end_current(request, db)
    resp = RedirectResponse(to, 303)
    session.start(request, resp, user.id, user.session_version, websessions.start(db, user))
    return resp


def _end_current(request: Request, db: SessionDep) -> None:
    data = session.read(request)
    if data and isinstance(data.get("sid"), str):
        websessions.end(db, data["sid"])


@router.get("/signin")
def signin_page(request: Request) -> HTMLResponse:
    return _signin(request)


def _signin(request: Request, status: int = 200, **ctx: Any) -> HTMLResponse:
    probe = HTMLResponse()
    csrf = session.anonymous_csrf(request, probe)
    resp = page(request, "signin.html", status, user=None, csrf=csrf, **ctx)
    for value in probe.headers.getlist("set-cookie"):
        resp.headers.append("set-cookie", value)
    return resp


@router.post("/signin")
def signin(
    request: Request,
    db: SessionDep,
    login: Annotated[str, Form(max_length=MAX_LOGIN)] = "",
    password: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)] = "",
    token: Annotated[str, Form(max_length=MAX_TOKEN_TEXT)] = "",
    csrf: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    """A wrong password is recorded (the brute-force limits), so this answers, never raises.
    The form's CSRF token must be the sign-in cookie's: no other site signs a browser in."""
    if not session.csrf_ok(session.read(request), csrf):
        error = "The form expired or came from elsewhere; sign in again."
        return _signin(request, 403, error=error, login=login)
    if token.strip():
        user = users.by_token(db, token.strip())
        if user is None or not users.is_active(user):
            error = "That token is not valid." if user is None else "This account is disabled."
            return _signin(request, 401, error=error)
        return _signed_in_as(request, db, user)
    address = request.client.host if request.client else "-"  # a trusted proxy's word only
    try:
        attempt = accounts.count_attempt(db, login, address, get_settings())
        db.commit()  # counted, and seen by every other attempt, before the password is checked
        found = accounts.verify(db, attempt, password)
    except DomainError as exc:
        err = as_api_error(exc)
        return _signin(request, err.status, error=err.message, login=login)
    if found is None:
        error = f"{accounts.WRONG[0].upper()}{accounts.WRONG[1:]}."
        return _signin(request, 401, error=error, login=login)
    return _signed_in_as(request, db, found)


@router.post("/signout")
def signout(
    request: Request, db: SessionDep, csrf: Annotated[str, Form(max_length=100)] = ""
) -> Response:
    """Ends the session on the server too (its cookie is then worth nothing). With the
    session's CSRF token only: no other site signs a browser out."""
    data = session.read(request)
    if data and data.get("uid") is not None:
        check_csrf(data, csrf)
        _end_current(request, db)
    resp = RedirectResponse("/signin", 303)
    session.end(request, resp)
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
    password: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)],
    confirm: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)],
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
    return _signed_in_as(request, db, user)


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
        row, text = tokens.create(db, user, validated(TokenIn, name=name).name)
    except (DomainError, ApiError) as exc:
        err = as_api_error(exc) if isinstance(exc, DomainError) else exc
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
    current: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)],
    password: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)],
    confirm: Annotated[str, Form(max_length=accounts.MAX_PASSWORD)],
) -> Response:
    """A new password ends every other session; this one goes on with a new cookie."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    try:
        accounts.change_password(db, user, current, password, confirm)
    except DomainError as exc:
        err = as_api_error(exc)
        return _account(request, db, err.status, error=err.message)
    return _signed_in_as(request, db, user, "/account?changed=1")

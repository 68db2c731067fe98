"""The browser session: a signed, HttpOnly cookie holding the user id, the server-side
session's id (app/users/websessions.py: signing out ends it) and a CSRF token that every form
must send back. Before sign-in the same cookie holds only a CSRF token, for the sign-in form
(so that no other site can sign a browser in to an account of its choosing).

The cookie is `Secure` when the request came over HTTPS (uvicorn takes the scheme from a
trusted proxy's X-Forwarded-Proto: KGRADE_TRUSTED_PROXIES) or the API listens beyond loopback,
unless KGRADE_SECURE_COOKIES says otherwise."""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import tempfile
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.settings import Settings, get_settings
from app.users.websessions import HOURS

COOKIE = "kgrade_session"
MAX_AGE = HOURS * 3600
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def secret_key(s: Settings) -> str:
    """The configured key, or the one generated into home/secret_key. Created whole or not at
    all (written to a private file, then linked in place, which fails if another process or
    request got there first): a reader never sees a half-written key, and two first requests at
    once cannot sign with two keys."""
    if s.secret_key:
        return s.secret_key
    path = s.home / "secret_key"
    if not path.exists():
        s.home.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=s.home, prefix=".secret_key.")  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(48))
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text().strip()


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key(get_settings()), salt="kgrade-session")


def read(request: Request) -> dict[str, Any] | None:
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None
    try:
        data = _serializer().loads(raw, max_age=MAX_AGE)
    except BadSignature:
        return None
    return data if isinstance(data, dict) else None


def secure(request: Request) -> bool:
    s = get_settings()
    if s.secure_cookies is not None:
        return s.secure_cookies
    return request.url.scheme == "https" or s.host not in LOOPBACK


def _set(request: Request, response: Response, data: dict[str, Any]) -> None:
    response.set_cookie(
        COOKIE,
        _serializer().dumps(data),
        max_age=MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )


def start(request: Request, response: Response, user_id: int, version: int, sid: str) -> None:
    """A session for the user; `version`: their session_version, which a reset, a disable or
    a new password bumps, ending this session; `sid`: the server-side session's id."""
    data = {"uid": user_id, "sid": sid, "csrf": secrets.token_urlsafe(24), "v": version}
    _set(request, response, data)


def anonymous_csrf(request: Request, response: Response) -> str:
    """The CSRF token of the sign-in form: the cookie's, or a new one set in `response`."""
    data = read(request)
    if data and data.get("csrf"):
        return str(data["csrf"])
    token = secrets.token_urlsafe(24)
    _set(request, response, {"csrf": token})
    return token


def current(data: dict[str, Any], version: int) -> bool:
    """Not ended since it started (a cookie from before versions counts as version 0)."""
    return data.get("v", 0) == version


def end(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=secure(request))


def csrf_ok(session: dict[str, Any] | None, token: str | None) -> bool:
    return bool(session and token and hmac.compare_digest(str(session.get("csrf")), token))

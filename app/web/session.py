"""The browser session: a signed, HttpOnly cookie holding the user id and a CSRF token that
every form must send back."""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from app.settings import Settings, get_settings

COOKIE = "kgrade_session"
MAX_AGE = 12 * 3600


def secret_key(s: Settings) -> str:
    if s.secret_key:
        return s.secret_key
    path = s.home / "secret_key"
    if not path.exists():
        s.home.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
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


def start(response: Response, user_id: int, version: int = 0) -> None:
    """A session for the user; `version`: their session_version, which a reset, a disable or
    a new password bumps, ending this session."""
    data = {"uid": user_id, "csrf": secrets.token_urlsafe(24), "v": version}
    response.set_cookie(
        COOKIE,
        _serializer().dumps(data),
        max_age=MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=False,
    )


def current(data: dict[str, Any], version: int) -> bool:
    """Not ended since it started (a cookie from before versions counts as version 0)."""
    return data.get("v", 0) == version


def end(response: Response) -> None:
    response.delete_cookie(COOKIE)


def csrf_ok(session: dict[str, Any] | None, token: str | None) -> bool:
    return bool(session and token and hmac.compare_digest(str(session.get("csrf")), token))

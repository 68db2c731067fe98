"""Who is signed in to the pages: the user of the session cookie, and the form's CSRF check."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from app.deps import SessionDep
from app.errors import ApiError
from app.models import Role, User
from app.users import service as users
from app.users import websessions
from app.web import session


class NotSignedIn(Exception):
    """Answered with a redirect to /signin."""


def signed_in(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    """The signed-in user and their session data (with its CSRF token)."""
    data = session.read(request)
    uid, sid = (data.get("uid"), data.get("sid")) if data else (None, None)
    user = users.get(db, uid) if isinstance(uid, int) else None
    if user is None or data is None or not session.current(data, user.session_version):
        raise NotSignedIn  # no session, or one a reset, a disable or a new password ended
    if not isinstance(sid, str) or not websessions.current(db, sid, user.id):
        raise NotSignedIn  # signed out (or expired) on the server, whoever kept the cookie
    if not users.is_active(user):
        raise NotSignedIn
    request.state.csrf = data["csrf"]  # for the sign-out form on every page
    return user, data


SignedIn = Annotated[tuple[User, dict[str, Any]], Depends(signed_in)]


def check_csrf(data: dict[str, Any] | None, token: str) -> None:
    if not session.csrf_ok(data, token):
        raise ApiError(403, "the form expired or came from elsewhere; reload the page and retry")


def local_path(back: str, default: str) -> str:
    """`back` if it is a path on this site, else `default`: never `//host`, `/\\host` (both
    another site to a browser), a scheme or a control character."""
    ok = (
        back.startswith("/")
        and not back.startswith(("//", "/\\"))
        and back.isprintable()
        and "\\" not in back
    )
    return back if ok else default


def is_admin(user: User) -> bool:
    return user.role == Role.ADMIN

"""Who is signed in to the pages: the user of the session cookie, and the form's CSRF check."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from app.deps import SessionDep
from app.errors import ApiError
from app.models import Role, User
from app.users import service as users
from app.web import session


class NotSignedIn(Exception):
    """Answered with a redirect to /signin."""


def signed_in(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    """The signed-in user and their session data (with its CSRF token)."""
    data = session.read(request)
    user = users.get(db, data["uid"]) if data else None
    if user is None or data is None or not session.current(data, user.session_version):
        raise NotSignedIn  # no session, or one a reset, a disable or a new password ended
    if not users.is_active(user):
        raise NotSignedIn
    return user, data


SignedIn = Annotated[tuple[User, dict[str, Any]], Depends(signed_in)]


def check_csrf(data: dict[str, Any], token: str) -> None:
    if not session.csrf_ok(data, token):
        raise ApiError(403, "the form expired or came from elsewhere; reload the page and retry")


def is_admin(user: User) -> bool:
    return user.role == Role.ADMIN

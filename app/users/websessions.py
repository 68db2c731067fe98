"""Browser sessions, server-side: the cookie names a session by a random id, kept here only
as its SHA-256, so that signing out ends it for good (a copy of the cookie is worth nothing
after), as do its expiry and the user's session_version (a reset, a disable, a new password)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.core.security import hash_token, new_token
from app.models import User, WebSession, now
from app.users import repository

HOURS = 12


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=now().tzinfo)  # SQLite keeps no zone


def start(session: Session, user: User) -> str:
    """A new session of `user`; its id, for the cookie only."""
    sid = new_token()
    repository.add_web_session(
        session,
        WebSession(
            id_hash=hash_token(sid), user_id=user.id, expires_at=now() + timedelta(hours=HOURS)
        ),
    )
    return sid


def current(session: Session, sid: str, user_id: int) -> bool:
    """The session of this id is the user's, not ended and not expired."""
    row = repository.web_session(session, hash_token(sid))
    return (
        row is not None
        and row.user_id == user_id
        and row.ended_at is None
        and _aware(row.expires_at) > now()
    )


def end(session: Session, sid: str) -> None:
    """Signed out: the session is over, whoever holds its cookie."""
    row = repository.web_session(session, hash_token(sid))
    if row is not None and row.ended_at is None:
        row.ended_at = now()
        session.flush()

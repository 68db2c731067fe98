"""A user's named API tokens, for the CLI: made from their own page (shown once, stored as a
SHA-256), several per user, each revoked on its own; a reset revokes them all."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.errors import Conflict, Invalid, NotFound
from app.core.security import hash_token, new_token
from app.models import ApiToken, User
from app.users import repository

MAX_TOKENS = 20


def listed(session: Session, user: User) -> list[ApiToken]:
    return repository.tokens_of(session, user.id)


def create(session: Session, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token named `name` (e.g. "laptop"), and its text, shown this once."""
    name = name.strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise Invalid("a token's name is 1 to 100 printable characters, e.g. 'laptop'")
    if repository.token_named(session, user.id, name):
        raise Conflict(f"you have a token named '{name}' already; revoke it or pick another name")
    if len(repository.tokens_of(session, user.id)) >= MAX_TOKENS:
        raise Conflict(f"at most {MAX_TOKENS} tokens per user; revoke one you no longer use")
    text = new_token()
    row = repository.add_token(
        session, ApiToken(user_id=user.id, name=name, token_hash=hash_token(text))
    )
    return row, text


def revoke(session: Session, user: User, token_id: int) -> ApiToken:
    row = repository.token_of(session, user.id, token_id)
    if row is None:
        raise NotFound(f"you have no token {token_id}")
    session.delete(row)
    session.flush()
    return row

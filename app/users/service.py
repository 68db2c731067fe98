"""Users: created from the CLI (`kgrade users add`), authenticated by a hashed bearer token."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.deps import hash_token
from app.models import Role, User


class UserError(ValueError):
    pass


def add(session: Session, name: str, role: str) -> tuple[User, str]:
    """Create a user; return it with its token (shown once, stored only hashed)."""
    if role not in set(Role):
        raise UserError(f"unknown role '{role}' (student, instructor or admin)")
    name = name.strip()
    if not name or len(name) > 100:
        raise UserError("a name is 1 to 100 characters")
    if session.scalar(select(User).where(User.name == name)):
        raise UserError(f"a user named '{name}' exists already")
    token = secrets.token_urlsafe(32)
    user = User(name=name, role=role, token_hash=hash_token(token))
    session.add(user)
    session.flush()
    return user, token

"""Users: created from the CLI (`kgrade users add`), authenticated by a hashed bearer token."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.security import hash_token, new_token
from app.models import Role, User
from app.users import repository


class UserError(ValueError):
    pass


def add(session: Session, name: str, role: str) -> tuple[User, str]:
    """Create a user; return it with its token (shown once, stored only hashed)."""
    if role not in set(Role):
        raise UserError(f"unknown role '{role}' (student, instructor or admin)")
    name = name.strip()
    if not name or len(name) > 100:
        raise UserError("a name is 1 to 100 characters")
    if repository.by_name(session, name):
        raise UserError(f"a user named '{name}' exists already")
    token = new_token()
    return repository.add(session, User(name=name, role=role, token_hash=hash_token(token))), token


def by_token(session: Session, token: str) -> User | None:
    """The user whose token this is, if any."""
    return repository.by_token_hash(session, hash_token(token))


def get(session: Session, user_id: int) -> User | None:
    return repository.get(session, user_id)


def is_staff(user: User) -> bool:
    return user.role in (Role.INSTRUCTOR, Role.ADMIN)

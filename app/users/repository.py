"""The users table's queries."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import User


def by_name(session: Session, name: str) -> User | None:
    return session.scalar(select(User).where(User.name == name))


def by_token_hash(session: Session, token_hash: str) -> User | None:
    return session.scalar(select(User).where(User.token_hash == token_hash))


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def add(session: Session, user: User) -> User:
    session.add(user)
    session.flush()
    return user

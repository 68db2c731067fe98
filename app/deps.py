"""FastAPI dependencies: a session per request (committed at the boundary), the current user."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import Depends, Header, Path
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import sessions
from app.errors import ApiError
from app.models import Role, User


def get_session() -> Iterator[Session]:
    with sessions()() as session:
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise


SessionDep = Annotated[Session, Depends(get_session)]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def current_user(
    session: SessionDep, authorization: Annotated[str | None, Header()] = None
) -> User:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ApiError(401, "missing bearer token", {"WWW-Authenticate": "Bearer"})
    user = session.scalar(
        select(User).where(User.token_hash == hash_token(authorization[7:].strip()))
    )
    if user is None:
        raise ApiError(401, "invalid token", {"WWW-Authenticate": "Bearer"})
    return user


CurrentUser = Annotated[User, Depends(current_user)]
# A row id in a path: within PostgreSQL's integer, so that a larger one is a 422, not a query
# the database refuses (a 500).
RowId = Annotated[int, Path(ge=1, le=2**31 - 1)]


def require(*roles: Role) -> Any:
    def check(user: CurrentUser) -> User:
        if user.role not in roles:
            raise ApiError(403, f"this needs the role {' or '.join(roles)}")
        return user

    return Depends(check)


def is_staff(user: User) -> bool:
    return user.role in (Role.INSTRUCTOR, Role.ADMIN)

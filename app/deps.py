"""FastAPI dependencies: a session per request (committed at the boundary), the current user."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any
from weakref import WeakKeyDictionary

from fastapi import Depends, Header, Path
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db import MAX_OVERFLOW, POOL_SIZE, sessions
from app.errors import ApiError
from app.models import Role, User

# FastAPI runs sync dependencies and endpoints in anyio's pool of 40 threads, and a request holds
# its connection from its first query (the token check) to its end, across several trips to that
# pool. With more requests in flight than connections, threads blocked waiting for a connection
# starve the requests holding one of the threads they need to finish: a deadlock that only the
# pool's 30 s timeout breaks, as a 500 (100 students posting at once: 40 of them). So a request
# first waits here, in the event loop, for one of as many slots as there are connections.
DB_SLOTS = POOL_SIZE + MAX_OVERFLOW
_slots: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = WeakKeyDictionary()


async def db_slot() -> AsyncIterator[None]:
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        slots = _slots[loop] = asyncio.Semaphore(DB_SLOTS)
    async with slots:
        yield


def get_session(_: Annotated[None, Depends(db_slot)]) -> Iterator[Session]:
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

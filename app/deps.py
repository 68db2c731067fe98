"""FastAPI dependencies, the only module that knows them: a session per request (committed at
the boundary, before the response is sent), the current user, the roles a route needs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Annotated, Any
from weakref import WeakKeyDictionary

from fastapi import Depends, Path, Query
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.db import MAX_OVERFLOW, POOL_SIZE, sessions
from app.errors import ApiError
from app.models import Role, User
from app.settings import Settings, get_settings
from app.users import service as users

# FastAPI runs sync dependencies and endpoints in anyio's thread pool, and a request holds its
# connection from its first query (the token check) to its end, across several trips to that
# pool. With more requests in flight than connections, threads blocked waiting for a connection
# starve the requests holding one of the threads they need to finish: a deadlock that only the
# pool's timeout breaks, as a 500 (docs/RELIABILITY.md, the API under a burst). So a request
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


def get_session(_: Annotated[None, Depends(db_slot, scope="function")]) -> Iterator[Session]:
    """The request's one transaction. Committed when the endpoint returns, and before the
    response is sent ("function" scope: FastAPI's default runs this after the response), so
    that a client who reads what it just created finds it, and the tasks it enqueued are sent
    after that commit (app/jobs/outbox.py)."""
    with sessions()() as session:
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise


SessionDep = Annotated[Session, Depends(get_session, scope="function")]
SettingsDep = Annotated[Settings, Depends(get_settings)]


# The token as the OpenAPI's bearer security scheme (so /docs has an Authorize button); the
# checks and their messages are ours, not HTTPBearer's (auto_error off).
bearer = HTTPBearer(
    auto_error=False,
    scheme_name="token",
    description="An API token (make one on your account page, /account): "
    "`Authorization: Bearer <token>`.",
)


def current_user(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
) -> User:
    if credentials is None:
        raise ApiError(401, "missing bearer token", {"WWW-Authenticate": "Bearer"})
    user = users.by_token(session, credentials.credentials.strip())
    if user is None:
        raise ApiError(401, "invalid token", {"WWW-Authenticate": "Bearer"})
    if not users.is_active(user):
        raise ApiError(401, "this account is disabled; ask your instructor")
    return user


CurrentUser = Annotated[User, Depends(current_user)]
# A row id in a path: within PostgreSQL's integer, so that a larger one is a 422, not a query
# the database refuses (a 500).
RowId = Annotated[int, Path(ge=1, le=2**31 - 1)]
# A text filter of a list (a section, a checkpoint, a name): short and NUL-free, else a 422 that
# names the parameter, never a value the database refuses.
Filter = Annotated[str | None, Query(max_length=200, pattern=r"^[^\x00]*$")]


def require(*roles: Role) -> Any:
    def check(user: CurrentUser) -> User:
        if user.role not in roles:
            raise ApiError(403, f"this needs the role {' or '.join(roles)}")
        return user

    return Depends(check)


Staff = require(Role.INSTRUCTOR, Role.ADMIN)
Admin = require(Role.ADMIN)

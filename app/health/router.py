from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Depends, Response
from fastapi.security import HTTPAuthorizationCredentials

from app.deps import SessionDep, bearer, db_slot
from app.health import service
from app.health.schemas import HealthOut
from app.users import service as users

router = APIRouter(tags=["health"])


@router.get(
    "/api/health",
    response_model=HealthOut,
    dependencies=[Depends(db_slot, scope="function")],  # it uses a connection too
    responses={
        200: {"description": "All up."},
        503: {"model": HealthOut, "description": "Something is down: the body says what."},
    },
)
def health(
    response: Response,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
) -> HealthOut:
    """Public. The workers' names (host:pid, a GPU's index) only for staff's tokens; others
    see them numbered."""
    h = service.check()
    response.status_code = 200 if h.ok else 503
    out = HealthOut.model_validate(asdict(h))
    if not _staff(session, credentials):
        for i, w in enumerate(out.workers):
            w.name = f"worker {i + 1}"
    return out


def _staff(session: SessionDep, credentials: HTTPAuthorizationCredentials | None) -> bool:
    if credentials is None:
        return False
    try:
        user = users.by_token(session, credentials.credentials.strip())
    except Exception:  # the database down: the answer says so; no names then
        session.rollback()
        return False
    return user is not None and users.is_active(user) and users.is_staff(user)

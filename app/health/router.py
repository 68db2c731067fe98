from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Depends, Response

from app.deps import db_slot
from app.health import service
from app.health.schemas import HealthOut

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
def health(response: Response) -> HealthOut:
    h = service.check()
    response.status_code = 200 if h.ok else 503
    return HealthOut.model_validate(asdict(h))

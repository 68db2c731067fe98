from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from sqlalchemy import select, text

from app import queue
from app.db import sessions
from app.deps import db_slot
from app.models import WorkerSeen, now

router = APIRouter(tags=["health"])


@router.get(
    "/api/health",
    dependencies=[Depends(db_slot)],  # it uses a connection too
    responses={
        200: {"description": "All up.", "content": {"application/json": {}}},
        503: {
            "description": "Something is down: the body says what.",
            "content": {"application/json": {}},
        },
    },
)
def health() -> JSONResponse:
    body: dict[str, Any] = {"database": "ok", "broker": "ok", "workers": []}
    ok = True
    try:
        with sessions()() as session:
            session.execute(text("SELECT 1"))
            recent = now() - timedelta(seconds=60)
            body["workers"] = [
                {"name": w.name, "queues": w.queues.split(","), "gpu": w.gpu}
                for w in session.scalars(select(WorkerSeen).where(WorkerSeen.last_seen > recent))
            ]
    except Exception as exc:
        body["database"] = f"unavailable: {type(exc).__name__}"
        ok = False
    if not queue.broker_reachable():
        body["broker"] = "unavailable"
        ok = False
    return JSONResponse(body, 200 if ok else 503)

from __future__ import annotations

import logging

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from app import queue
from app.deps import CurrentUser, RowId, SessionDep, require
from app.errors import ApiError, documented
from app.models import Role, Submission, User
from app.settings import get_settings
from app.submissions import grading_review as review
from app.submissions import service
from app.submissions.schemas import SubmissionIn, SubmissionOut, SubmissionRow

log = logging.getLogger(__name__)
router = APIRouter(
    prefix="/api/submissions", tags=["submissions"], responses=documented(400, 401, 422, 503)
)
Staff = require(Role.INSTRUCTOR, Role.ADMIN)


def out(sub: Submission) -> SubmissionOut:
    return SubmissionOut(
        id=sub.id,
        user=sub.user.name,
        checkpoint=sub.checkpoint,
        status=sub.status,
        stage=sub.stage,
        attempts=sub.attempts,
        created_at=sub.created_at,
        finished_at=sub.finished_at,
        verdict=sub.verdict,
        level=sub.level,
        speedup=sub.speedup,
        gpu_model=sub.gpu_model,
        result=sub.result,
    )


@router.post(
    "",
    status_code=201,
    response_model=SubmissionOut,
    responses=documented(404, 409, 413, 429),
)
def create(body: SubmissionIn, user: CurrentUser, session: SessionDep) -> SubmissionOut:
    if not queue.broker_reachable():
        raise ApiError(
            503, "the grading queue is unavailable; nothing was stored, try again shortly"
        )
    sub = service.admit(
        session, user, body.checkpoint, body.source, body.explanation, get_settings()
    )
    session.commit()  # the row exists before any worker can be told about it
    try:
        queue.send_precheck(sub.id)
    except Exception:  # stored: the reconciler sends it once the broker is back
        log.exception("submission %s stored but not sent; the reconciler will send it", sub.id)
    return out(sub)


@router.get("/{submission_id}", response_model=SubmissionOut, responses=documented(404))
def read(submission_id: RowId, user: CurrentUser, session: SessionDep) -> SubmissionOut:
    return out(service.readable(session, user, submission_id))


@router.get("", response_model=list[SubmissionRow])
def list_(
    user: CurrentUser,
    session: SessionDep,
    checkpoint: str | None = None,
    student: str | None = None,
    limit: int = Query(100, ge=1, le=1000),
) -> list[SubmissionRow]:
    rows = service.history(session, user, checkpoint=checkpoint, student=student, limit=limit)
    return [
        SubmissionRow(
            id=s.id,
            user=s.user.name,
            checkpoint=s.checkpoint,
            status=s.status,
            stage=s.stage,
            created_at=s.created_at,
            verdict=s.verdict,
            level=s.level,
            speedup=s.speedup,
            gpu_model=s.gpu_model,
        )
        for s in rows
    ]


class OverrideIn(BaseModel):
    level: int = Field(ge=0, le=4)
    note: str = Field(min_length=1, max_length=2000)


class EvidenceIn(BaseModel):
    url: str = Field(min_length=8, max_length=500)


class DecisionIn(BaseModel):
    approve: bool
    note: str = ""


@router.post("/{submission_id}/override", responses=documented(403, 404, 409))
def override(
    submission_id: RowId, body: OverrideIn, session: SessionDep, user: User = Staff
) -> dict[str, object]:
    sub = service.readable(session, user, submission_id)
    review.override(session, sub, user, body.level, body.note)
    return {"id": sub.id, "level": sub.level, "overrides": review.history(session, sub)}


@router.get("/{submission_id}/overrides", responses=documented(404))
def overrides(
    submission_id: RowId, user: CurrentUser, session: SessionDep
) -> list[dict[str, object]]:
    return review.history(session, service.readable(session, user, submission_id))


@router.post("/{submission_id}/evidence", status_code=201, responses=documented(404, 409))
def evidence(
    submission_id: RowId, body: EvidenceIn, user: CurrentUser, session: SessionDep
) -> dict[str, object]:
    ev = review.attach_evidence(
        session, service.readable(session, user, submission_id), user, body.url
    )
    return {"id": ev.id, "status": ev.status, "url": ev.url}


@router.post("/evidence/{evidence_id}/decision", responses=documented(403, 404, 409))
def decision(
    evidence_id: RowId, body: DecisionIn, session: SessionDep, user: User = Staff
) -> dict[str, object]:
    ev = review.decide(session, evidence_id, user, body.approve, body.note)
    return {"id": ev.id, "status": ev.status}

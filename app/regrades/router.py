from __future__ import annotations

from fastapi import APIRouter, Query

from app.deps import Filter, RowId, SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import User
from app.regrades import service
from app.regrades.schemas import RegradeIn, RegradeOut

router = APIRouter(
    prefix="/api/regrades", tags=["regrades"], responses=documented(400, 401, 403, 422, 503)
)


def out(p: service.Progress) -> RegradeOut:
    return RegradeOut(
        id=p.id,
        checkpoint=p.checkpoint,
        scope=p.scope,
        target=p.target,
        version=p.version,
        carry_overrides=p.carry_overrides,
        by=p.by,
        created_at=p.created_at,
        total=p.total,
        done=p.done,
        status="done" if p.finished else "running",
        url=f"/api/regrades/{p.id}",
    )


@router.post("", status_code=202, response_model=RegradeOut, responses=documented(404, 409))
def create(body: RegradeIn, session: SessionDep, s: SettingsDep, user: User = Staff) -> RegradeOut:
    """Grade again, with the checkpoint's current version, in the background: one submission,
    a student's submissions to a checkpoint, or all of a checkpoint's graded submissions.
    Every earlier result is kept (GET /api/submissions/{id}/results). Follow it at `url`.
    Submissions the installed version already graded are left out unless `force`d (409 when
    that leaves none); the override in force on each is carried to its new result unless
    `clear_overrides`."""
    what = service.Target(body.checkpoint, body.student, body.submission)
    how = service.How(force=body.force, carry_overrides=not body.clear_overrides)
    return out(service.start(session, user, s, what, how))


@router.get("/{regrade_id}", response_model=RegradeOut, responses=documented(404))
def read(regrade_id: RowId, session: SessionDep, _: User = Staff) -> RegradeOut:
    return out(service.get(session, regrade_id))


@router.get("", response_model=list[RegradeOut])
def list_(
    session: SessionDep,
    _: User = Staff,
    checkpoint: Filter = None,
    limit: int = Query(20, ge=1, le=500),
) -> list[RegradeOut]:
    return [out(p) for p in service.listed(session, checkpoint, limit)]

from __future__ import annotations

from fastapi import APIRouter

from app.checkpoints import service as checkpoints
from app.deadlines import service
from app.deadlines.schemas import DeadlineIn, DeadlineOut
from app.deps import CurrentUser, SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import User
from grader import DeadlineSpec

router = APIRouter(
    prefix="/api/checkpoints", tags=["deadlines"], responses=documented(400, 401, 404, 422, 503)
)


def out(checkpoint: str, source: str, d: DeadlineSpec | None) -> DeadlineOut:
    if d is None:
        return DeadlineOut(checkpoint=checkpoint, source="none")
    times = {"opens": d.opens, "due": d.due, "late_until": d.late_until}
    return DeadlineOut(
        checkpoint=checkpoint,
        source=source,
        policy=str(d.policy),
        timezone=d.timezone,
        shown={k: d.shown(t) for k, t in times.items() if t is not None},
        **times,
    )


@router.get("/{checkpoint_id}/deadline", response_model=DeadlineOut)
def read(checkpoint_id: str, _: CurrentUser, session: SessionDep, s: SettingsDep) -> DeadlineOut:
    cp = checkpoints.get(s, checkpoint_id)
    return out(cp.id, service.source(session, cp), service.effective(session, cp))


@router.put("/{checkpoint_id}/deadline", response_model=DeadlineOut, responses=documented(403))
def put(
    checkpoint_id: str, body: DeadlineIn, session: SessionDep, s: SettingsDep, user: User = Staff
) -> DeadlineOut:
    """Overrides the definition's deadline; submissions already made are marked late, or on
    time, again by the new due time."""
    cp = checkpoints.get(s, checkpoint_id)
    deadline = service.set_deadline(session, user, cp, service.parse(body.model_dump()))
    return out(cp.id, "instructor", deadline)


@router.delete("/{checkpoint_id}/deadline", response_model=DeadlineOut, responses=documented(403))
def clear(checkpoint_id: str, session: SessionDep, s: SettingsDep, _: User = Staff) -> DeadlineOut:
    """Back to the definition's deadline (or none)."""
    cp = checkpoints.get(s, checkpoint_id)
    deadline = service.clear(session, cp)
    return out(cp.id, "definition" if deadline else "none", deadline)

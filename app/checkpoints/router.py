from __future__ import annotations

from fastapi import APIRouter

from app.checkpoints import service, validations
from app.checkpoints.schemas import (
    CheckpointIn,
    CheckpointOut,
    OpenIn,
    ValidationOut,
    ValidationQueued,
)
from app.deps import Admin, CurrentUser, RowId, SessionDep, SettingsDep
from app.errors import documented
from app.models import User
from grader import checkpoints

router = APIRouter(
    prefix="/api/checkpoints", tags=["checkpoints"], responses=documented(400, 401, 422, 503)
)


def public(c: checkpoints.Checkpoint) -> CheckpointOut:
    d = c.definition
    return CheckpointOut(
        id=d.id,
        title=d.title,
        entry=d.entry,
        signature=d.signature,
        statement=d.statement.strip(),
        dtypes=d.dtypes,
        open=d.open,
        target_gpus=d.target_gpus,
        baseline=d.rubric.baseline,
        starter=c.starter.read_text() if c.starter else None,
    )


@router.get("", response_model=list[CheckpointOut])
def list_(_: CurrentUser, s: SettingsDep) -> list[CheckpointOut]:
    return [public(c) for c in service.listed(s)]


@router.get("/{checkpoint_id}", response_model=CheckpointOut, responses=documented(404))
def read(checkpoint_id: str, _: CurrentUser, s: SettingsDep) -> CheckpointOut:
    return public(service.get(s, checkpoint_id))


@router.post("", status_code=202, response_model=ValidationQueued, responses=documented(403, 409))
def create(
    body: CheckpointIn, session: SessionDep, s: SettingsDep, admin: User = Admin
) -> ValidationQueued:
    """Refused at once if the files cannot make a checkpoint; else stored and validated by a
    worker (its reference correct, each known-bad solution its verdict, the starter not
    accepted), which installs it if it passes. Follow it at `url`."""
    upload = (body.definition, body.problem, body.reference, body.starter, body.wrong)
    row = validations.start(session, admin, s, upload)
    return ValidationQueued(
        id=row.id,
        checkpoint=row.checkpoint,
        status=row.status,
        url=f"/api/checkpoints/validations/{row.id}",
    )


@router.get(
    "/validations/{validation_id}", response_model=ValidationOut, responses=documented(403, 404)
)
def validation(validation_id: RowId, session: SessionDep, _: User = Admin) -> ValidationOut:
    return ValidationOut.of(validations.get(session, validation_id))


@router.patch("/{checkpoint_id}", response_model=CheckpointOut, responses=documented(403, 404, 409))
def update(checkpoint_id: str, body: OpenIn, s: SettingsDep, _: User = Admin) -> CheckpointOut:
    return public(service.set_open(s, checkpoint_id, body.open))

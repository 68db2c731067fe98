from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.checkpoints import service, validations, versions
from app.checkpoints.schemas import (
    CheckpointIn,
    CheckpointOut,
    CheckpointUnchanged,
    OpenIn,
    OrderIn,
    ValidationOut,
    ValidationQueued,
    VersionFilesOut,
    VersionOut,
)
from app.deps import Admin, CurrentUser, RowId, SessionDep, SettingsDep, Staff
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
        version=service.version(c),
    )


@router.get("", response_model=list[CheckpointOut])
def list_(_: CurrentUser, s: SettingsDep) -> list[CheckpointOut]:
    return [public(c) for c in service.listed(s)]


@router.get("/{checkpoint_id}", response_model=CheckpointOut, responses=documented(404))
def read(checkpoint_id: str, _: CurrentUser, s: SettingsDep) -> CheckpointOut:
    return public(service.get(s, checkpoint_id))


@router.post(
    "",
    status_code=202,
    response_model=ValidationQueued,
    responses={
        **documented(403, 409),
        200: {"model": CheckpointUnchanged, "description": "the installed version's files"},
    },
)
def create(
    body: CheckpointIn, session: SessionDep, s: SettingsDep, admin: User = Admin
) -> ValidationQueued | JSONResponse:
    """Refused at once if the files cannot make a checkpoint; else stored and validated by a
    worker (its reference correct, each known-bad solution its verdict, the starter not
    accepted), which installs it if it passes: a new version of the checkpoint (`replaces`
    names the one installed now). Follow it at `url`. The installed version's very files
    again: 200, no new version, nothing queued."""
    upload = (body.definition, body.problem, body.reference, body.starter, body.wrong)
    started = validations.start(session, admin, s, upload)
    if started.row is None:
        same = CheckpointUnchanged(
            checkpoint=started.checkpoint,
            version=started.version,
            message=f"{started.checkpoint}: the same files as the installed version "
            f"{versions.short(started.version)}; no new version",
        )
        return JSONResponse(same.model_dump(), status_code=200)
    row = started.row
    return ValidationQueued(
        id=row.id,
        checkpoint=row.checkpoint,
        status=row.status,
        url=f"/api/checkpoints/validations/{row.id}",
        version=started.version,
        replaces=started.replaces,
    )


@router.get(
    "/{checkpoint_id}/versions", response_model=list[VersionOut], responses=documented(403, 404)
)
def versions_(
    checkpoint_id: str, session: SessionDep, s: SettingsDep, _: User = Staff
) -> list[VersionOut]:
    """The versions that graded results or were installed, oldest first."""
    current, rows = service.versions_of(session, s, checkpoint_id)
    return [
        VersionOut(version=v.version, created_at=v.created_at, current=v.version == current)
        for v in rows
    ]


@router.get(
    "/{checkpoint_id}/versions/{version}",
    response_model=VersionFilesOut,
    responses=documented(403, 404),
)
def version_files(
    checkpoint_id: str, version: str, session: SessionDep, _: User = Staff
) -> VersionFilesOut:
    """A version's files (by its hash or a prefix of at least 6 hex digits)."""
    row = service.version_files(session, checkpoint_id, version)
    return VersionFilesOut(checkpoint=row.checkpoint, version=row.version, files=row.files)


@router.get(
    "/validations/{validation_id}", response_model=ValidationOut, responses=documented(403, 404)
)
def validation(validation_id: RowId, session: SessionDep, _: User = Admin) -> ValidationOut:
    return ValidationOut.of(validations.get(session, validation_id))


@router.put("/order", response_model=list[CheckpointOut], responses=documented(403, 404))
def order(body: OrderIn, s: SettingsDep, _: User = Admin) -> list[CheckpointOut]:
    """The course's order of checkpoints (the home page, the lists): these first, the others
    after them as before (KGRADE_HOME/course.toml)."""
    return [public(c) for c in service.set_order(s, body.order)]


@router.patch("/{checkpoint_id}", response_model=CheckpointOut, responses=documented(403, 404, 409))
def update(checkpoint_id: str, body: OpenIn, s: SettingsDep, _: User = Admin) -> CheckpointOut:
    return public(service.set_open(s, checkpoint_id, body.open))

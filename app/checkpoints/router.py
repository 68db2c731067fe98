from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from app.checkpoints import service
from app.deps import CurrentUser, require
from app.errors import ApiError, documented
from app.models import Role, User
from app.settings import get_settings
from grader import checkpoints

router = APIRouter(
    prefix="/api/checkpoints", tags=["checkpoints"], responses=documented(400, 401, 422, 503)
)


def _public(c: checkpoints.Checkpoint) -> dict[str, Any]:
    d = c.definition
    return {
        "id": d.id,
        "title": d.title,
        "entry": d.entry,
        "signature": d.signature,
        "statement": d.statement.strip(),
        "dtypes": d.dtypes,
        "open": d.open,
        "target_gpus": d.target_gpus,
        "baseline": d.rubric.baseline,
        "starter": c.starter.read_text() if c.starter else None,
    }


def all_checkpoints() -> list[checkpoints.Checkpoint]:
    return [checkpoints.load(f) for f in checkpoints.folders(get_settings().all_checkpoint_dirs)]


@router.get("")
def list_(_: CurrentUser) -> list[dict[str, Any]]:
    return [_public(c) for c in all_checkpoints()]


@router.get("/{checkpoint_id}", responses=documented(404))
def read(checkpoint_id: str, _: CurrentUser) -> dict[str, Any]:
    try:
        return _public(checkpoints.get(checkpoint_id, get_settings().all_checkpoint_dirs))
    except checkpoints.CheckpointError as exc:
        raise ApiError(404, str(exc)) from exc


class CheckpointIn(BaseModel):
    definition: str = Field(description="checkpoint.toml")
    problem: str = Field(description="problem.py: make_inputs, reference, BASELINES")
    reference: str = Field(description="reference.py: a correct Triton solution")
    starter: str | None = None
    wrong: dict[str, str] = Field(
        description="solutions/wrong/NAME.py → source, each with # expect:"
    )


class OpenIn(BaseModel):
    open: bool


Admin = require(Role.ADMIN)


@router.post("", status_code=201, responses=documented(403, 409))
def create(body: CheckpointIn, response: Response, _: User = Admin) -> dict[str, Any]:
    report = service.create(
        get_settings(), body.definition, body.problem, body.reference, body.starter, body.wrong
    )
    if not report["valid"]:
        response.status_code = 422
        report["error"] = "validation failed: the checkpoint was not opened"
    return report


@router.patch("/{checkpoint_id}", responses=documented(403, 404, 409))
def update(checkpoint_id: str, body: OpenIn, _: User = Admin) -> dict[str, Any]:
    service.set_open(get_settings(), checkpoint_id, body.open)
    return _public(checkpoints.get(checkpoint_id, get_settings().all_checkpoint_dirs))

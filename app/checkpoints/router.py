from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.deps import CurrentUser
from app.errors import ApiError
from app.settings import get_settings
from grader import checkpoints

router = APIRouter(prefix="/api/checkpoints", tags=["checkpoints"])


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
    folders = checkpoints.builtin_folders() + [
        p.parent
        for d in get_settings().all_checkpoint_dirs
        for p in sorted(d.glob("*/checkpoint.toml"))
    ]
    return [checkpoints.load(f) for f in folders]


@router.get("")
def list_(_: CurrentUser) -> list[dict[str, Any]]:
    return [_public(c) for c in all_checkpoints()]


@router.get("/{checkpoint_id}")
def read(checkpoint_id: str, _: CurrentUser) -> dict[str, Any]:
    try:
        return _public(checkpoints.get(checkpoint_id, get_settings().all_checkpoint_dirs))
    except checkpoints.CheckpointError as exc:
        raise ApiError(404, str(exc)) from exc

"""The result page's re-check of an explanation: the student edits the prose or the claims
block and re-checks against the same stored measurements — no new GPU run, nothing stored.
The same function as `kgrade explain` (grader/judge/recheck.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from app.checkpoints import registry
from app.core.errors import DomainError
from app.core.limits import MAX_SOURCE_BYTES
from app.deadlines import service as deadlines
from app.deps import RowId, SessionDep
from app.errors import as_api_error
from app.settings import get_settings
from app.submissions import service
from app.web.auth import check_csrf, signed_in
from app.web.templating import page
from grader import GradeResult, checkpoints
from grader import explanation_recheck as recheck

router = APIRouter(include_in_schema=False)


def _refused(request: Request, status: int, message: str) -> Response:
    return page(
        request, "_reading.html", status, e=None, would=None, error=message, stored_level=None
    )


@router.post("/submissions/{sid}/explanation/recheck")
def recheck_explanation(
    sid: RowId,
    request: Request,
    db: SessionDep,
    explanation: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    try:
        sub = service.readable(db, user, sid)
    except DomainError as exc:
        err = as_api_error(exc)
        return _refused(request, err.status, err.message)
    if len(explanation.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return _refused(request, 413, "The explanation may be at most 256 KiB.")
    settings = get_settings()
    seen = deadlines.submission_result(db, user, sub, settings)
    try:
        result = GradeResult.model_validate(seen or {})
    except ValueError:
        return _refused(
            request, 409, "This result cannot be re-checked (it is from an older kgrade)."
        )
    if result.citable is None:
        return _refused(request, 409, "This result has no measurements to check against.")
    try:
        spec = registry.get(sub.checkpoint, settings.all_checkpoint_dirs).definition.rubric
    except checkpoints.CheckpointError as exc:
        return _refused(request, 409, str(exc))
    r = recheck.recheck(result, explanation, spec)
    return page(
        request,
        "_reading.html",
        e=r.check.model_dump(mode="json"),
        would=r.level,
        stored_level=r.stored_level,
        error=None,
    )

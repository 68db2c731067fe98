"""The student's pages (submit, a submission live, history) and the instructor's forms on a
submission (override, level-4 decision)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Query, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from app.checkpoints import service as checkpoints
from app.core.errors import DomainError, Invalid
from app.core.limits import MAX_SOURCE_BYTES
from app.deadlines import service as deadlines
from app.deps import Filter, RowId, SessionDep
from app.errors import ApiError, as_api_error
from app.health import service as health
from app.models import User, now
from app.settings import get_settings
from app.submissions import explained, results, service
from app.submissions import grading_review as review
from app.submissions.schemas import DecisionIn, ExplanationDecisionIn, OverrideIn, SubmissionIn
from app.users.service import is_staff
from app.web import plots
from app.web.auth import check_csrf, local_path, signed_in
from app.web.forms import validated
from app.web.result_view import view
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _submit_form(
    request: Request,
    db: SessionDep,
    user: User,
    csrf: str,
    checkpoint: str | None,
    status: int = 200,
    **ctx: str,
) -> HTMLResponse:
    """The submit form, with the chosen checkpoint's deadline; on an error, `checkpoint` stays
    chosen only if it is open."""
    cps = [c for c in checkpoints.listed(get_settings()) if c.definition.open]
    chosen = next((c for c in cps if c.id == checkpoint), None)
    if status == 200 and chosen is None:
        chosen = cps[0] if cps else None
    if "starter" not in ctx:
        ctx["starter"] = chosen.starter.read_text() if chosen and chosen.starter else ""
    deadline = deadlines.effective(db, chosen) if chosen else None
    gpus = sorted({w.gpu for w in health.gpu_workers(db) if w.gpu})  # seen in the last minute
    return page(
        request,
        "submit.html",
        status,
        user=user,
        csrf=csrf,
        checkpoints=cps,
        chosen=chosen,
        deadline=deadline,
        gpus=gpus,
        admission=str(deadline.admission(now())) if deadline else "on_time",
        **ctx,
    )


@router.get("/submit")
def submit_page(request: Request, db: SessionDep, checkpoint: str | None = None) -> Response:
    user, data = signed_in(request, db)
    return _submit_form(request, db, user, data["csrf"], checkpoint)


@router.post("/submit")
async def submit(
    request: Request,
    db: SessionDep,
    checkpoint: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
    source: Annotated[str, Form()] = "",
    explanation: Annotated[str, Form()] = "",
    upload: UploadFile | None = None,
) -> Response:
    """Admitted by the same function as the API's; the precheck is sent after the commit."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    # what the textarea held (a browser sends CRLF): shown again on an error, unless too long
    typed = service.lines(source)
    s = get_settings()
    try:
        if upload is not None and upload.filename:
            raw = await upload.read(MAX_SOURCE_BYTES + 1)  # more is refused: TooLarge
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise Invalid(f"{upload.filename} is not UTF-8 text") from exc
        body = validated(
            SubmissionIn, checkpoint=checkpoint, source=source, explanation=explanation or None
        )
        sub = service.submit(db, user, body.checkpoint, body.source, body.explanation, s)
    except (DomainError, ApiError) as exc:
        err = as_api_error(exc) if isinstance(exc, DomainError) else exc
        return _submit_form(
            request,
            db,
            user,
            data["csrf"],
            checkpoint,
            err.status,
            starter=typed if len(typed.encode("utf-8", "replace")) <= MAX_SOURCE_BYTES else "",
            error=err.message,
            explanation=explanation,
        )
    return RedirectResponse(f"/submissions/{sub.id}", 303)


@router.get("/submissions/{sid}")
def submission_page(sid: RowId, request: Request, db: SessionDep) -> Response:
    user, data = signed_in(request, db)
    try:
        sub = service.readable(db, user, sid)
    except DomainError as exc:
        err = as_api_error(exc)
        return page(request, "error.html", err.status, user=user, error=err.message)
    seen = deadlines.submission_result(db, user, sub, get_settings())
    return page(request, "submission.html", user=user, csrf=data["csrf"], **view(db, sub, seen))


@router.get("/submissions/{sid}/status")
def submission_status(sid: RowId, request: Request, db: SessionDep) -> Response:
    """The live part: polled by htmx every second until the grading is done."""
    user, _ = signed_in(request, db)
    sub = service.readable(db, user, sid)
    seen = deadlines.submission_result(db, user, sub, get_settings())
    return page(request, "_result.html", **view(db, sub, seen))


@router.get("/submissions/{sid}/report.ncu-rep")
def report(sid: RowId, request: Request, db: SessionDep) -> Response:
    user, _ = signed_in(request, db)
    sub = service.readable(db, user, sid)
    path = service.nsight_report(get_settings(), sub.id)
    if path is None:
        return page(request, "error.html", 404, user=user, error="No Nsight report for this one.")
    return FileResponse(path, filename=f"submission-{sub.id}.ncu-rep")


PAGE_ROWS = 500


@router.get("/history")
def history(
    request: Request,
    db: SessionDep,
    checkpoint: Filter = None,
    student: Filter = None,
    section: Filter = None,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
) -> Response:
    """Newest first, a page of PAGE_ROWS with a link to the older ones; staff filter by
    student and section."""
    user, _ = signed_in(request, db)
    rows = service.history(
        db,
        user,
        checkpoint=checkpoint,
        student=student,
        section=section,
        limit=PAGE_ROWS + 1,
        before=before,
    )
    more, rows = len(rows) > PAGE_ROWS, rows[:PAGE_ROWS]
    keep = {"checkpoint": checkpoint, "student": student, "section": section}
    older = (
        "/history?" + urlencode({**{k: v for k, v in keep.items() if v}, "before": rows[-1].id})
        if more
        else None
    )
    mine = [r for r in rows if r.user_id == user.id]
    timed = _by_checkpoint((r.checkpoint, r.created_at, r.speedup) for r in mine if r.speedup)
    levels = _by_checkpoint(
        (r.checkpoint, r.created_at, float(r.level)) for r in mine if r.level is not None
    )
    plot = (  # a line per checkpoint: levels of different checkpoints are not one series
        plots.over_time_by(timed, "speedup ×", "Your speedup over time, per checkpoint")
        if timed
        else plots.over_time_by(levels, "level", "Your level over time, per checkpoint")
        if levels
        else None
    )
    changed = results.in_force(db, rows)  # the override in force on each, who and why
    return page(
        request,
        "history.html",
        user=user,
        rows=rows,
        plot=plot,
        checkpoint=checkpoint,
        changed=changed,
        older=older,
        filters=keep,
    )


def _by_checkpoint(
    rows: Iterable[tuple[str, datetime, float]],
) -> dict[str, list[tuple[datetime, float]]]:
    series: dict[str, list[tuple[datetime, float]]] = {}
    for checkpoint, at, value in sorted(rows, key=lambda r: r[1]):
        series.setdefault(checkpoint, []).append((at, value))
    return series


@router.post("/submissions/{sid}/override")
def override(
    sid: RowId,
    request: Request,
    db: SessionDep,
    level: Annotated[str, Form()],
    note: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
    back: Annotated[str, Form()] = "",
) -> Response:
    """The API's rules: OverrideIn's bounds, then the service's (level 4 on a level 3)."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors override.")
    body = validated(OverrideIn, level=level, note=note)
    sub = service.readable(db, user, sid)
    refused = _refused(
        request, user, sid, lambda: review.override(db, sub, user, body.level, body.note)
    )
    return refused or RedirectResponse(local_path(back, f"/submissions/{sid}"), 303)


def _refused(request: Request, user: User, sid: int, act: Callable[[], object]) -> Response | None:
    """`act`, or the page that says why the service refused it (nothing stored)."""
    try:
        act()
    except DomainError as exc:
        err = as_api_error(exc)
        to = {"back": f"/submissions/{sid}", "back_label": f"Back to submission {sid}"}
        return page(request, "error.html", err.status, user=user, error=err.message, **to)
    return None


@router.post("/submissions/{sid}/explanation/decision")
def explanation_decision(
    sid: RowId,
    request: Request,
    db: SessionDep,
    accept: Annotated[str, Form()],
    note: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
) -> Response:
    """The API's rules (ExplanationDecisionIn, then app/submissions/explained.py)."""
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors decide.")
    body = validated(ExplanationDecisionIn, accept=accept, note=note)
    sub = service.readable(db, user, sid)
    refused = _refused(
        request, user, sid, lambda: explained.decide(db, sub, user, body.accept, body.note)
    )
    return refused or RedirectResponse(f"/submissions/{sid}", 303)


@router.post("/evidence/{eid}/decision")
def decide(
    eid: RowId,
    request: Request,
    db: SessionDep,
    approve: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
    back: Annotated[str, Form()] = "/",
) -> Response:
    user, data = signed_in(request, db)
    check_csrf(data, csrf)
    if not is_staff(user):
        return page(request, "error.html", 403, user=user, error="Only instructors decide.")
    body = validated(DecisionIn, approve=approve)
    review.decide(db, eid, user, body.approve, body.note)
    return RedirectResponse(local_path(back, "/"), 303)

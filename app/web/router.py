"""The pages. They call the same services as the JSON API; errors become messages on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from sqlalchemy import select

from app import queue
from app.checkpoints import service as cp_service
from app.checkpoints.router import all_checkpoints
from app.deps import RowId, SessionDep, hash_token, is_staff
from app.errors import ApiError
from app.leaderboard import service as boards
from app.leaderboard.router import attachment
from app.models import Evidence, EvidenceStatus, Role, User
from app.settings import get_settings
from app.submissions import grading_review as review
from app.submissions import service
from app.web import plots, session
from grader import facts
from grader.checkpoints import BUILTIN_DIR
from grader.models import Citable, GradeResult
from grader.text import untrusted

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")


def _shown(value: Any) -> Any:
    """Each `{{ value }}`: a string's control characters shown escaped, as in the terminal
    report (grader/text.py), then HTML-escaped; markup the page made itself is left alone."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return untrusted(value, lines=True)
    return value


templates.env.finalize = _shown
router = APIRouter(include_in_schema=False)


class NotSignedIn(Exception):
    pass


def _user(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    data = session.read(request)
    user = db.get(User, data["uid"]) if data else None
    if user is None or data is None:
        raise NotSignedIn
    return user, data


def _page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, ctx, status_code=status)


def _check_csrf(data: dict[str, Any], token: str) -> None:
    if not session.csrf_ok(data, token):
        raise ApiError(403, "the form expired or came from elsewhere; reload the page and retry")


@router.get("/")
def home(request: Request, db: SessionDep) -> Response:
    try:
        _user(request, db)
    except NotSignedIn:
        return RedirectResponse("/signin", 303)
    return RedirectResponse("/submit", 303)


@router.get("/signin")
def signin_page(request: Request) -> HTMLResponse:
    return _page(request, "signin.html", user=None)


@router.post("/signin")
def signin(request: Request, db: SessionDep, token: Annotated[str, Form()] = "") -> Response:
    user = db.scalar(select(User).where(User.token_hash == hash_token(token.strip())))
    if user is None:
        return _page(request, "signin.html", 401, user=None, error="That token is not valid.")
    resp = RedirectResponse("/submit", 303)
    session.start(resp, user.id)
    return resp


@router.post("/signout")
def signout() -> Response:
    resp = RedirectResponse("/signin", 303)
    session.end(resp)
    return resp


@router.get("/submit")
def submit_page(request: Request, db: SessionDep, checkpoint: str | None = None) -> Response:
    user, data = _user(request, db)
    cps = [c for c in all_checkpoints() if c.definition.open]
    chosen = next((c for c in cps if c.id == checkpoint), cps[0] if cps else None)
    return _page(
        request,
        "submit.html",
        user=user,
        csrf=data["csrf"],
        checkpoints=cps,
        chosen=chosen,
        starter=chosen.starter.read_text() if chosen and chosen.starter else "",
    )


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
    user, data = _user(request, db)
    _check_csrf(data, csrf)
    try:
        if upload is not None and upload.filename:
            raw = await upload.read()
            try:
                source = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ApiError(400, f"{upload.filename} is not UTF-8 text") from exc
        if not queue.broker_reachable():
            raise ApiError(503, "The grading queue is unavailable; nothing was stored. Retry soon.")
        sub = service.admit(db, user, checkpoint, source, explanation or None, get_settings())
        db.commit()
    except ApiError as exc:
        cps = [c for c in all_checkpoints() if c.definition.open]
        chosen = next((c for c in cps if c.id == checkpoint), None)
        return _page(
            request,
            "submit.html",
            exc.status,
            user=user,
            csrf=data["csrf"],
            checkpoints=cps,
            chosen=chosen,
            starter=source,
            error=exc.message,
            explanation=explanation,
        )
    queue.send_precheck(sub.id)
    return RedirectResponse(f"/submissions/{sub.id}", 303)


def _grouped(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per case: its calls (draws × autotune configs), failures and worst error."""
    groups: dict[str, dict[str, Any]] = {}
    for c in cases:
        g = groups.setdefault(
            c["name"],
            {
                "name": c["name"],
                "shape": c.get("shape"),
                "dtype": c.get("dtype"),
                "calls": 0,
                "failed": 0,
                "worst": None,
                "message": "",
            },
        )
        g["calls"] += 1
        if not c["passed"]:
            g["failed"] += 1
            g["message"] = g["message"] or c.get("message", "")
        err = c.get("max_abs_err")
        if err is not None and (g["worst"] is None or err > g["worst"]):
            g["worst"] = err
    return list(groups.values())


def _cite_tables(result: dict[str, Any]) -> list[facts.Table]:
    """'What you can cite', as tables (grader/facts.py), from a stored result."""
    try:
        cite = Citable.model_validate(result["citable"]) if result.get("citable") else None
    except ValueError:
        return []
    return facts.tables(cite) if cite is not None else []


def _stored(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result as today's model has it: fields added since it was stored get their
    defaults (a result from an older kgrade must still render); one that no longer validates
    is shown as it is."""
    try:
        return GradeResult.model_validate(result).model_dump(mode="json")
    except ValueError:
        return result


def _view(sub: Any) -> dict[str, Any]:
    result = _stored(sub.result or {})
    bench = result.get("benchmark")
    return {
        "sub": sub,
        "r": result,
        "cite_tables": _cite_tables(result),
        "groups": _grouped(result.get("cases") or []),
        "roofline": plots.roofline(bench) if bench and bench.get("shapes") else None,
        "lines": sub.source.splitlines(),
        "report": (
            get_settings().home / "reports" / str(sub.id) / "submission-full.ncu-rep"
        ).exists(),
    }


@router.get("/submissions/{sid}")
def submission_page(sid: RowId, request: Request, db: SessionDep) -> Response:
    user, data = _user(request, db)
    try:
        sub = service.readable(db, user, sid)
    except ApiError as exc:
        return _page(request, "error.html", exc.status, user=user, error=exc.message)
    return _page(request, "submission.html", user=user, csrf=data["csrf"], **_view(sub))


@router.get("/submissions/{sid}/status")
def submission_status(sid: RowId, request: Request, db: SessionDep) -> Response:
    """The live part: polled by htmx every second until the grading is done."""
    user, _ = _user(request, db)
    sub = service.readable(db, user, sid)
    return _page(request, "_result.html", **_view(sub))


@router.get("/submissions/{sid}/report.ncu-rep")
def report(sid: RowId, request: Request, db: SessionDep) -> Response:
    user, _ = _user(request, db)
    sub = service.readable(db, user, sid)
    path = get_settings().home / "reports" / str(sub.id) / "submission-full.ncu-rep"
    if not path.is_file():
        return _page(request, "error.html", 404, user=user, error="No Nsight report for this one.")
    return FileResponse(path, filename=f"submission-{sub.id}.ncu-rep")


@router.get("/history")
def history(request: Request, db: SessionDep, checkpoint: str | None = None) -> Response:
    user, _ = _user(request, db)
    rows = service.history(db, user, checkpoint=checkpoint, student=None, limit=500)
    mine = [r for r in rows if r.user_id == user.id]
    timed = sorted((r.created_at, r.speedup) for r in mine if r.speedup is not None)
    levels = sorted((r.created_at, float(r.level)) for r in mine if r.level is not None)
    plot = (
        plots.over_time(timed, "speedup ×", "Your speedup over time")
        if timed
        else plots.over_time(levels, "level", "Your level over time")
        if levels
        else None
    )
    return _page(request, "history.html", user=user, rows=rows, plot=plot, checkpoint=checkpoint)


@router.get("/leaderboard/{checkpoint}")
def leaderboard(checkpoint: str, request: Request, db: SessionDep) -> Response:
    user, data = _user(request, db)
    if not is_staff(user):
        return _page(
            request, "error.html", 403, user=user, error="The leaderboard is for instructors."
        )
    board = boards.best(db, checkpoint)
    speeds = [e.speedup for entries in board.values() for e in entries if e.speedup]
    pending = db.execute(
        select(Evidence, User.name)
        .join_from(Evidence, User, Evidence.decided_by == User.id, isouter=True)
        .where(Evidence.status == EvidenceStatus.PENDING)
    ).all()
    return _page(
        request,
        "leaderboard.html",
        user=user,
        csrf=data["csrf"],
        checkpoint=checkpoint,
        boards=board,
        pending=[e for e, _ in pending],
        plot=plots.distribution(speeds, f"Speedups on {checkpoint}") if speeds else None,
    )


@router.get("/leaderboard/{checkpoint}/grades.csv")
def leaderboard_csv(checkpoint: str, request: Request, db: SessionDep) -> Response:
    from app.leaderboard.router import csv_text

    user, _ = _user(request, db)
    if not is_staff(user):
        return _page(request, "error.html", 403, user=user, error="Grades are for instructors.")
    return Response(
        csv_text(db, checkpoint),
        media_type="text/csv",
        headers={"Content-Disposition": attachment(f"{checkpoint}.csv")},
    )


@router.post("/submissions/{sid}/override")
def override(
    sid: RowId,
    request: Request,
    db: SessionDep,
    level: Annotated[int, Form()],
    note: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
    back: Annotated[str, Form()] = "",
) -> Response:
    user, data = _user(request, db)
    _check_csrf(data, csrf)
    if user.role not in (Role.INSTRUCTOR, Role.ADMIN):
        return _page(request, "error.html", 403, user=user, error="Only instructors override.")
    sub = service.readable(db, user, sid)
    try:
        review.override(db, sub, user, level, note)
    except ApiError as exc:
        return _page(request, "error.html", exc.status, user=user, error=exc.message)
    return RedirectResponse(back if back.startswith("/") else f"/submissions/{sid}", 303)


@router.post("/evidence/{eid}/decision")
def decide(
    eid: RowId,
    request: Request,
    db: SessionDep,
    approve: Annotated[str, Form()],
    csrf: Annotated[str, Form()],
    back: Annotated[str, Form()] = "/",
) -> Response:
    user, data = _user(request, db)
    _check_csrf(data, csrf)
    if user.role not in (Role.INSTRUCTOR, Role.ADMIN):
        return _page(request, "error.html", 403, user=user, error="Only instructors decide.")
    review.decide(db, eid, user, approve == "yes", "")
    return RedirectResponse(back if back.startswith("/") else "/", 303)


def _admin(request: Request, db: SessionDep) -> tuple[User, dict[str, Any]]:
    user, data = _user(request, db)
    if user.role != Role.ADMIN:
        raise ApiError(403, "Checkpoints are managed by admins.")
    return user, data


def _admin_page(
    request: Request, user: User, data: dict[str, Any], status: int = 200, **ctx: Any
) -> HTMLResponse:
    cps = [(c, c.folder.parent == BUILTIN_DIR) for c in all_checkpoints()]
    return _page(
        request, "admin.html", status, user=user, csrf=data["csrf"], checkpoints=cps, **ctx
    )


@router.get("/admin/checkpoints")
def admin_page(request: Request, db: SessionDep) -> Response:
    try:
        user, data = _admin(request, db)
    except ApiError as exc:
        return _page(request, "error.html", exc.status, user=None, error=exc.message)
    return _admin_page(request, user, data)


@router.post("/admin/checkpoints")
async def admin_create(
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    definition: UploadFile,
    problem: UploadFile,
    reference: UploadFile,
    wrong: list[UploadFile],
    starter: UploadFile | None = None,
) -> Response:
    user, data = _admin(request, db)
    _check_csrf(data, csrf)
    try:
        text = {
            f: (await u.read()).decode("utf-8")
            for f, u in (("definition", definition), ("problem", problem), ("reference", reference))
        }
        start = (await starter.read()).decode("utf-8") if starter and starter.filename else None
        bad = {u.filename or "x.py": (await u.read()).decode("utf-8") for u in wrong if u.filename}
        report = cp_service.create(
            get_settings(), text["definition"], text["problem"], text["reference"], start, bad
        )
    except UnicodeDecodeError:
        return _admin_page(request, user, data, 400, error="Every file must be UTF-8 text.")
    except ApiError as exc:
        return _admin_page(request, user, data, exc.status, error=exc.message)
    return _admin_page(
        request,
        user,
        data,
        201 if report["valid"] else 422,
        report=report,
        error=None if report["valid"] else "Validation failed: not opened.",
    )


@router.post("/admin/checkpoints/{checkpoint_id}/open")
def admin_open(
    checkpoint_id: str,
    request: Request,
    db: SessionDep,
    csrf: Annotated[str, Form()],
    open_: Annotated[str, Form(alias="open")],
) -> Response:
    user, data = _admin(request, db)
    _check_csrf(data, csrf)
    try:
        cp_service.set_open(get_settings(), checkpoint_id, open_ == "yes")
    except ApiError as exc:
        return _admin_page(request, user, data, exc.status, error=exc.message)
    return RedirectResponse("/admin/checkpoints", 303)

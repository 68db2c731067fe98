from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Query

from app.deadlines import service as deadlines
from app.deps import CurrentUser, Filter, RowId, SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import Submission, User
from app.submissions import explained, results, service
from app.submissions import grading_review as review
from app.submissions.schemas import (
    DecisionIn,
    DecisionOut,
    EvidenceIn,
    EvidenceOut,
    ExplanationDecisionIn,
    ExplanationDecisionOut,
    OverrideIn,
    OverrideOut,
    OverrideRecordOut,
    ResultOut,
    SubmissionIn,
    SubmissionOut,
    SubmissionRow,
)

router = APIRouter(
    prefix="/api/submissions", tags=["submissions"], responses=documented(400, 401, 422, 503)
)


def _record(o: results.Override) -> OverrideRecordOut:
    return OverrideRecordOut(**asdict(o))


def _summary(sub: Submission, changed: results.Changed | None) -> dict[str, Any]:
    """The fields a history line and a whole submission share: the level in force, the
    grader's and the override, the same everywhere (the CLI and the pages show these)."""
    fields = (
        "id",
        "checkpoint",
        "status",
        "stage",
        "created_at",
        "late",
        "verdict",
        "level",
        "speedup",
    )
    return {
        "user": sub.user.name,
        "gpu_model": sub.gpu_model,
        "graded_level": sub.level if changed is None else changed[0],
        "override": None if changed is None else _record(changed[1]),
        "checkpoint_version": sub.checkpoint_version,
        "regrade": sub.regrade_id,
    } | {f: getattr(sub, f) for f in fields}


def out(
    session: SessionDep, sub: Submission, result: dict[str, Any] | None = None
) -> SubmissionOut:
    """`result`: the stored result as the reader may see it (hidden cases withheld from a
    student until the due time: app/deadlines)."""
    return SubmissionOut(
        **_summary(sub, results.in_force(session, [sub]).get(sub.id)),
        attempts=sub.attempts,
        finished_at=sub.finished_at,
        result=result,
        results=results.counts(session, [sub.id]).get(sub.id, 0),
    )


@router.post(
    "",
    status_code=201,
    response_model=SubmissionOut,
    responses=documented(403, 404, 409, 413, 429),
)
def create(
    body: SubmissionIn, user: CurrentUser, session: SessionDep, s: SettingsDep
) -> SubmissionOut:
    """Stored and committed before this answers; the precheck is sent after that commit.
    Refused with 409 before the checkpoint's deadline opens it (or while it is closed), 403
    after its due time (policy 'refuse') or its late window; marked `late` after the due time
    (policy 'accept')."""
    sub = service.submit(session, user, body.checkpoint, body.source, body.explanation, s)
    return out(session, sub)


@router.get("/{submission_id}", response_model=SubmissionOut, responses=documented(404))
def read(
    submission_id: RowId, user: CurrentUser, session: SessionDep, s: SettingsDep
) -> SubmissionOut:
    """A student sees the hidden cases' details only after the checkpoint's due time."""
    sub = service.readable(session, user, submission_id)
    return out(session, sub, deadlines.submission_result(session, user, sub, s))


@router.get("/{submission_id}/results", response_model=list[ResultOut], responses=documented(404))
def results_(
    submission_id: RowId, user: CurrentUser, session: SessionDep, s: SettingsDep
) -> list[ResultOut]:
    """Every grading of the submission, newest first: its first and each regrade's, with the
    checkpoint version that graded it and the overrides made on it (each result as the reader
    may see it: a student sees hidden cases only after the due time)."""
    sub = service.readable(session, user, submission_id)
    seen = deadlines.results_as_seen(session, user, sub, s)
    return [
        ResultOut(
            id=r.id,
            current=r.id == sub.result_id,
            created_at=r.created_at,
            checkpoint_version=r.checkpoint_version,
            regrade=r.regrade_id,
            verdict=r.verdict,
            graded_level=r.level,
            level=overrides[-1].new_level if overrides else r.level,
            overrides=[_record(o) for o in overrides],
            speedup=r.speedup,
            gpu_model=r.gpu_model,
            result=seen(r.result),
        )
        for r, overrides in results.history(session, sub)
    ]


@router.get("", response_model=list[SubmissionRow])
def list_(
    user: CurrentUser,
    session: SessionDep,
    checkpoint: Filter = None,
    student: Filter = None,
    limit: int = Query(100, ge=1, le=1000),
) -> list[SubmissionRow]:
    rows = service.history(session, user, checkpoint=checkpoint, student=student, limit=limit)
    changed = results.in_force(session, rows)
    return [SubmissionRow(**_summary(s, changed.get(s.id))) for s in rows]


def _history(session: SessionDep, sub: Submission) -> list[OverrideRecordOut]:
    return [OverrideRecordOut(**asdict(r)) for r in review.history(session, sub)]


@router.post(
    "/{submission_id}/override", response_model=OverrideOut, responses=documented(403, 404, 409)
)
def override(
    submission_id: RowId, body: OverrideIn, session: SessionDep, user: User = Staff
) -> OverrideOut:
    sub = service.readable(session, user, submission_id)
    review.override(session, sub, user, body.level, body.note)
    return OverrideOut(id=sub.id, level=sub.level, overrides=_history(session, sub))


@router.post(
    "/{submission_id}/explanation/decision",
    response_model=ExplanationDecisionOut,
    responses=documented(403, 404, 409),
)
def explanation_decision(
    submission_id: RowId, body: ExplanationDecisionIn, session: SessionDep, user: User = Staff
) -> ExplanationDecisionOut:
    """Accept or refuse the explanation apart from the kernel: the level is then worked out
    from this grading's measurements and that word (accepted: level 3 only where nothing but
    the explanation stood against it; refused: level 2 at most), kept like an override."""
    sub = service.readable(session, user, submission_id)
    _, reasons = explained.decide(session, sub, user, body.accept, body.note)
    return ExplanationDecisionOut(
        id=sub.id, level=sub.level, reasons=reasons, overrides=_history(session, sub)
    )


@router.get(
    "/{submission_id}/overrides",
    response_model=list[OverrideRecordOut],
    responses=documented(404),
)
def overrides(
    submission_id: RowId, user: CurrentUser, session: SessionDep
) -> list[OverrideRecordOut]:
    return _history(session, service.readable(session, user, submission_id))


@router.post(
    "/{submission_id}/evidence",
    status_code=201,
    response_model=EvidenceOut,
    responses=documented(404, 409),
)
def evidence(
    submission_id: RowId, body: EvidenceIn, user: CurrentUser, session: SessionDep
) -> EvidenceOut:
    ev = review.attach_evidence(
        session, service.readable(session, user, submission_id), user, body.url
    )
    return EvidenceOut(id=ev.id, status=ev.status, url=ev.url)


@router.post(
    "/evidence/{evidence_id}/decision",
    response_model=DecisionOut,
    responses=documented(403, 404, 409),
)
def decision(
    evidence_id: RowId, body: DecisionIn, session: SessionDep, user: User = Staff
) -> DecisionOut:
    ev = review.decide(session, evidence_id, user, body.approve, body.note)
    return DecisionOut(id=ev.id, status=ev.status)

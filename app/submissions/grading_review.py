"""Instructors' word on a level: overrides (who, when, why, kept forever) and level 4."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.errors import ApiError
from app.models import Evidence, EvidenceStatus, LevelOverride, Status, Submission, User, now


def override(
    session: Session, sub: Submission, instructor: User, level: int, note: str
) -> LevelOverride:
    if sub.status != Status.DONE:
        raise ApiError(409, "only a graded submission's level can be changed")
    if not note.strip():
        raise ApiError(400, "an override needs a note saying why")
    row = LevelOverride(
        submission_id=sub.id,
        instructor_id=instructor.id,
        old_level=sub.level,
        new_level=level,
        note=note.strip(),
    )
    sub.level = level
    session.add(row)
    session.flush()
    return row


def attach_evidence(session: Session, sub: Submission, student: User, url: str) -> Evidence:
    if sub.user_id != student.id:
        raise ApiError(404, f"no submission {sub.id}")
    if sub.level is None or sub.level < 3:
        raise ApiError(409, "level 4 builds on level 3: this submission is not at level 3")
    if not url.startswith(("https://", "http://")):
        raise ApiError(400, "the evidence must be a link (https://…)")
    ev = Evidence(submission_id=sub.id, url=url)
    session.add(ev)
    session.flush()
    return ev


def decide(
    session: Session, evidence_id: int, instructor: User, approve: bool, note: str
) -> Evidence:
    ev = session.get(Evidence, evidence_id)
    if ev is None:
        raise ApiError(404, f"no evidence {evidence_id}")
    if ev.status != EvidenceStatus.PENDING:
        raise ApiError(409, f"evidence {evidence_id} was already {ev.status}")
    ev.status = EvidenceStatus.APPROVED if approve else EvidenceStatus.DECLINED
    ev.decided_by, ev.decided_at, ev.note = instructor.id, now(), note.strip() or None
    if approve:
        sub = session.get(Submission, ev.submission_id)
        assert sub is not None
        override(session, sub, instructor, 4, f"level 4 approved: {ev.url}. {note}".strip())
    session.flush()
    return ev


def history(session: Session, sub: Submission) -> list[dict[str, object]]:
    rows = session.execute(
        select(LevelOverride, User.name)
        .join(User, User.id == LevelOverride.instructor_id)
        .where(LevelOverride.submission_id == sub.id)
        .order_by(LevelOverride.id)
    ).all()
    return [
        {
            "old_level": o.old_level,
            "new_level": o.new_level,
            "note": o.note,
            "by": name,
            "at": o.created_at.isoformat(),
        }
        for o, name in rows
    ]

"""Instructors' word on a level: overrides (who, when, why, kept forever) and level 4."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.core.errors import Conflict, Invalid, NotFound
from app.core.limits import MAX_NOTE, MAX_URL
from app.models import Evidence, EvidenceStatus, LevelOverride, Status, Submission, User, now
from app.submissions import decisions, repository, results


@dataclass(frozen=True)
class OverrideRecord:
    old_level: int | None
    new_level: int
    note: str
    by: str
    at: str  # ISO 8601, as stored
    explanation: str | None = None  # a word on the explanation (app/submissions/explained.py)


def override(
    session: Session, sub: Submission, instructor: User, level: int, note: str
) -> LevelOverride:
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 4:
        raise Invalid(f"a level is 0 to 4, not {level!r}")
    note = decisions.checked_note(note, "an override")
    if sub.status != Status.DONE:
        raise Conflict("only a graded submission's level can be changed")
    graded = results.graded_level(session, sub)
    if level == 4 and graded != 3:
        raise Conflict(
            f"level 4 builds on level 3: this result was graded level {graded}; "
            "level 4 is given only on top of a level-3 result"
        )
    return decisions.recorded(session, sub, instructor, level, note)


def attach_evidence(session: Session, sub: Submission, student: User, url: str) -> Evidence:
    if sub.user_id != student.id:
        raise NotFound(f"no submission {sub.id}")
    graded = results.graded_level(session, sub)
    if graded is None or graded < 3:
        raise Conflict(
            f"level 4 builds on level 3: this result was graded level {graded}, not level 3"
        )
    if not url.startswith(("https://", "http://")):
        raise Invalid("the evidence must be a link (https://…)")
    if len(url) > MAX_URL or not url.isprintable():
        raise Invalid(f"a link is at most {MAX_URL} printable characters")
    ev = Evidence(submission_id=sub.id, url=url)
    session.add(ev)
    session.flush()
    return ev


def decide(
    session: Session, evidence_id: int, instructor: User, approve: bool, note: str
) -> Evidence:
    if len(note) > MAX_NOTE:
        raise Invalid(f"a decision's note is at most {MAX_NOTE} characters")
    ev = repository.get_evidence(session, evidence_id)
    if ev is None:
        raise NotFound(f"no evidence {evidence_id}")
    if ev.status != EvidenceStatus.PENDING:
        raise Conflict(f"evidence {evidence_id} was already {ev.status}")
    ev.status = EvidenceStatus.APPROVED if approve else EvidenceStatus.DECLINED
    ev.decided_by, ev.decided_at, ev.note = instructor.id, now(), note.strip() or None
    if approve:
        sub = repository.get(session, ev.submission_id)
        assert sub is not None
        override(session, sub, instructor, 4, f"level 4 approved: {ev.url}. {note}".strip())
    session.flush()
    return ev


def history(session: Session, sub: Submission) -> list[OverrideRecord]:
    return [
        OverrideRecord(
            o.old_level, o.new_level, o.note, name, o.created_at.isoformat(), o.explanation
        )
        for o, name in repository.overrides(session, sub.id)
    ]


def pending_evidence(session: Session) -> list[Evidence]:
    return repository.pending_evidence(session)

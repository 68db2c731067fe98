"""An instructor's decision on a level, kept: the note it needs and the row it leaves
(level_overrides: who, why, from which level, on which result). Overrides
(grading_review.override) and decisions on an explanation (explained.decide) both go
through here."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.core.errors import Conflict, Invalid
from app.core.limits import MAX_NOTE
from app.models import LevelOverride, Status, Submission, User


def checked_note(note: str, what: str) -> str:
    """An instructor's note on a decision, stripped: it says why (never blank) in at most
    MAX_NOTE characters (`what` names the decision in the errors)."""
    if not note.strip():
        raise Invalid(f"{what} needs a note saying why")
    if len(note) > MAX_NOTE:
        raise Invalid(f"{what}: the note is at most {MAX_NOTE} characters")
    return note.strip()


def recorded(
    session: Session, sub: Submission, instructor: User, level: int, note: str, **word: str
) -> LevelOverride:
    """The decision kept (who, why, from which level, on which result) and its level put in
    force; `word`: what else the row records (an explanation's decision)."""
    if sub.status != Status.DONE:
        raise Conflict("only a graded submission's level can be changed")
    row = LevelOverride(
        submission_id=sub.id,
        instructor_id=instructor.id,
        old_level=sub.level,
        new_level=level,
        note=note,
        result_id=sub.result_id,
        **word,
    )
    sub.level = level
    session.add(row)
    session.flush()
    return row

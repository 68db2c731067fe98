"""An instructor's word on a submission's explanation, apart from its kernel (issue 30): kept
as a level override (`level_overrides.explanation`: "accepted" or "refused") whose level is not
chosen but worked out, from the grading's own measurements and that word
(grader/judge/recheck.decided): accepted gives level 3 only where nothing but the explanation
stood against it; refused gives level 2 at most. A regrade carries the word and works the
level out again on its new result (app/submissions/results.carry)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.checkpoints import registry
from app.core.errors import Conflict
from app.models import LevelOverride, Status, Submission, User
from app.settings import get_settings
from app.submissions import decisions
from grader import GradeResult, checkpoints
from grader import explanation_recheck as recheck

ACCEPTED, REFUSED = "accepted", "refused"
NO_GPU = (
    "this result has no GPU grading: an explanation is judged against its kernel's "
    "measurements, and there are none to judge it against"
)


def level_with(checkpoint: str, result: dict[str, Any] | None, word: str) -> tuple[int, list[str]]:
    """The level `word` on the explanation gives a stored result, and the reasons against
    level 3 that remain. Conflict when the result cannot be judged so (no GPU stage)."""
    try:
        graded = GradeResult.model_validate(result or {})
        spec = registry.get(checkpoint, get_settings().all_checkpoint_dirs).definition.rubric
    except (ValueError, checkpoints.CheckpointError) as exc:
        raise Conflict(f"this result cannot be judged again: {exc}") from exc
    out = recheck.decided(graded, spec, word == ACCEPTED)
    if out is None:
        raise Conflict(NO_GPU)
    return out


def decide(
    session: Session, sub: Submission, instructor: User, accept: bool, note: str
) -> tuple[LevelOverride, list[str]]:
    """Record the word on the current result; the level in force becomes the one it gives
    (a level 4 stays where the explanation is accepted and level 3 still stands)."""
    note = decisions.checked_note(note, "a decision on an explanation")
    if sub.status != Status.DONE:
        raise Conflict("only a graded submission's explanation can be decided on")
    if not (sub.explanation or "").strip():
        raise Conflict("this submission has no explanation to accept or refuse")
    word = ACCEPTED if accept else REFUSED
    level, reasons = level_with(sub.checkpoint, sub.result, word)
    if accept and level == 3 and sub.level == 4:
        level = 4  # approved evidence builds on a level 3 that still stands
    return decisions.recorded(session, sub, instructor, level, note, explanation=word), reasons

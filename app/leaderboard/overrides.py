"""A board's entries with the override in force on each best submission (who, when, why) and
the grader's level of it, as the submission itself says them (app/submissions/results.py)."""

from __future__ import annotations

from dataclasses import asdict

from sqlalchemy.orm import Session

from app.leaderboard.schemas import EntryOut, OverrideShown
from app.submissions import results


def shown(session: Session, boards: dict[str, list[EntryOut]]) -> dict[str, list[EntryOut]]:
    ids = [e.submission_id for entries in boards.values() for e in entries]
    changed = results.in_force_by_id(session, ids)
    for entries in boards.values():
        for e in entries:
            graded, o = changed.get(e.submission_id, (e.level, None))
            e.graded_level = graded
            if o is not None:
                e.override = OverrideShown(**asdict(o))
    return boards

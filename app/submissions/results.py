"""Every finished grading of a submission, kept (`grading_results`): a first grading and each
regrade add one; the submission's summary fields and `result_id` are the newest, graded by
the checkpoint version it names. What an instructor's override changed is said per result:
the override in force is the latest one made on the current result. A regrade's new result
carries the override in force on the result before it (unless the regrade was asked to clear
them): the instructor's word stands until the instructor changes it."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import Conflict
from app.models import GradingResult, LevelOverride, Regrade, Submission, User
from app.submissions import explained


@dataclass(frozen=True)
class Override:
    """An instructor's change of a result's level: who, when, why."""

    old_level: int | None
    new_level: int
    note: str
    by: str
    at: str  # ISO 8601
    carried: bool = False  # carried by a regrade from the submission's earlier result
    explanation: str | None = None  # a word on the explanation: "accepted" or "refused"


# The level the grader gave a result an instructor changed, and the override in force.
Changed = tuple[int | None, Override]
# A kept result, the level in force on it, and the override a regrade carried to it.
LevelInForce = tuple[GradingResult, int | None, Override | None]


def add(session: Session, submission_id: int, version: str | None) -> GradingResult:
    """Keep the submission's summary fields (just written by the worker) as its newest result,
    of `version`, and make it the current one; the regrade it was queued for is done."""
    sub = session.get(Submission, submission_id, populate_existing=True)
    assert sub is not None
    row = GradingResult(
        submission_id=sub.id,
        checkpoint_version=version,
        regrade_id=sub.regrade_id,
        verdict=sub.verdict,
        level=sub.level,
        speedup=sub.speedup,
        gpu_model=sub.gpu_model,
        result=sub.result,
    )
    session.add(row)
    session.flush()
    sub.result_id, sub.checkpoint_version, sub.regrade_id = row.id, version, None
    carry(session, sub, row)
    session.flush()
    return row


def carry(session: Session, sub: Submission, row: GradingResult) -> LevelOverride | None:
    """A regrade's new result `row` takes the override in force on the result before it (its
    instructor, note and time kept; the level it changes is the new graded one), unless the
    regrade was asked to clear them. A level 4 is carried only onto a level-3 result (level 4
    builds on level 3)."""
    regrade = session.get(Regrade, row.regrade_id) if row.regrade_id is not None else None
    if regrade is None or not regrade.carry_overrides:
        return None
    earlier = session.scalar(
        select(GradingResult.id)
        .where(GradingResult.submission_id == sub.id, GradingResult.id < row.id)
        .order_by(GradingResult.id.desc())
        .limit(1)
    )
    last = session.scalar(
        select(LevelOverride)
        .where(LevelOverride.submission_id == sub.id, LevelOverride.result_id == earlier)
        .order_by(LevelOverride.id.desc())
        .limit(1)
    )
    if earlier is None or last is None:
        return None
    level = last.new_level
    if last.explanation is not None:  # the word carried; its level worked out on the new result
        try:
            level = explained.level_with(sub.checkpoint, row.result, last.explanation)[0]
        except Conflict:
            level = row.level if row.level is not None else 0  # a result it cannot judge
    elif last.new_level == 4 and row.level != 3:
        return None
    copy = LevelOverride(
        submission_id=sub.id,
        instructor_id=last.instructor_id,
        old_level=row.level,
        new_level=level,
        note=last.note,
        created_at=last.created_at,
        result_id=row.id,
        carried_from=last.id,
        explanation=last.explanation,
    )
    session.add(copy)
    sub.level = level
    return copy


def archive(session: Session, sub: Submission) -> None:
    """A result stored before results were kept (no `result_id`): kept now, with its graded
    level and the overrides made on it, so a regrade loses nothing."""
    if sub.result_id is not None or sub.verdict is None:
        return
    first = overrides(session, sub.id)
    row = GradingResult(
        submission_id=sub.id,
        checkpoint_version=sub.checkpoint_version,
        verdict=sub.verdict,
        level=first[0].old_level if first else sub.level,
        speedup=sub.speedup,
        gpu_model=sub.gpu_model,
        result=sub.result,
        created_at=sub.finished_at or sub.created_at,
    )
    session.add(row)
    session.flush()
    sub.result_id = row.id
    for o in session.scalars(
        select(LevelOverride).where(
            LevelOverride.submission_id == sub.id, LevelOverride.result_id.is_(None)
        )
    ):
        o.result_id = row.id  # the overrides made on it go with it


def of(session: Session, submission_id: int) -> list[GradingResult]:
    """A submission's results, newest first."""
    return list(
        session.scalars(
            select(GradingResult)
            .where(GradingResult.submission_id == submission_id)
            .order_by(GradingResult.id.desc())
        ).all()
    )


def overrides(session: Session, submission_id: int) -> list[Override]:
    """A submission's level overrides, oldest first, each with its instructor's name."""
    return [o for _, o in _overrides(session, [submission_id]).get(submission_id, [])]


def _overrides(session: Session, ids: list[int]) -> dict[int, list[tuple[int | None, Override]]]:
    rows = session.execute(
        select(LevelOverride, User.name)
        .join(User, User.id == LevelOverride.instructor_id)
        .where(LevelOverride.submission_id.in_(ids))
        .order_by(LevelOverride.id)
    ).all()
    out: dict[int, list[tuple[int | None, Override]]] = {}
    for o, name in rows:
        at = o.created_at.isoformat()
        carried = o.carried_from is not None
        rec = Override(o.old_level, o.new_level, o.note, name, at, carried, o.explanation)
        out.setdefault(o.submission_id, []).append((o.result_id, rec))
    return out


def levels_in_force(session: Session, ids: list[int]) -> dict[int, list[LevelInForce]]:
    """Each of these submissions' results, oldest first: (the result, the level in force on
    it, the override carried to it by a regrade, if any)."""
    if not ids:
        return {}
    found = _overrides(session, ids)
    on: dict[int | None, list[Override]] = {}
    for made in found.values():
        for rid, o in made:
            on.setdefault(rid, []).append(o)
    out: dict[int, list[LevelInForce]] = {}
    rows = session.scalars(
        select(GradingResult).where(GradingResult.submission_id.in_(ids)).order_by(GradingResult.id)
    )
    for r in rows:
        mine = on.get(r.id, [])
        level = mine[-1].new_level if mine else r.level
        carried = next((o for o in mine if o.carried), None)
        out.setdefault(r.submission_id, []).append((r, level, carried))
    return out


def in_force(session: Session, subs: list[Submission]) -> dict[int, Changed]:
    """For each of these submissions whose current result an instructor changed: the level
    the grader gave it and the override in force (the latest made on it), by id."""
    if not subs:
        return {}
    found = _overrides(session, [s.id for s in subs])
    out = {}
    for sub in subs:
        mine = [o for rid, o in found.get(sub.id, []) if rid == sub.result_id]
        if mine:
            out[sub.id] = (mine[0].old_level, mine[-1])
    return out


def in_force_by_id(session: Session, ids: list[int]) -> dict[int, Changed]:
    """`in_force` of the submissions with these ids (a board's best, say)."""
    if not ids:
        return {}
    subs = session.scalars(select(Submission).where(Submission.id.in_(ids))).all()
    return in_force(session, list(subs))


def graded_level(session: Session, sub: Submission) -> int | None:
    """The level the grader gave the current result, before any override."""
    changed = in_force(session, [sub]).get(sub.id)
    return sub.level if changed is None else changed[0]


def history(session: Session, sub: Submission) -> list[tuple[GradingResult, list[Override]]]:
    """Its results, newest first, each with the overrides made on it."""
    found = _overrides(session, [sub.id]).get(sub.id, [])
    return [(r, [o for rid, o in found if rid == r.id]) for r in of(session, sub.id)]


def counts(session: Session, ids: list[int]) -> dict[int, int]:
    """How many results each of these submissions has had."""
    if not ids:
        return {}
    rows = session.execute(
        select(GradingResult.submission_id, func.count())
        .where(GradingResult.submission_id.in_(ids))
        .group_by(GradingResult.submission_id)
    )
    return {sid: n for sid, n in rows}

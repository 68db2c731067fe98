"""`standings`, kept by the database's triggers, always equals the ranking computed from every
submission: after random inserts, finishes, overrides, moves and deletes, on PostgreSQL and on
SQLite, and when two workers finish one student's submissions at the same moment."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.leaderboard import service as boards
from app.models import Scope, Stage, Standing, Status, Submission, User

CHECKPOINTS = ["c3a-softmax", "c3a-rmsnorm"]
GPUS = [None, "h200", "rtx5090"]
Board = dict[str, list[tuple[str, int, float | None, int]]]


def expected(
    session: Session, checkpoint: str, scope: Scope = Scope.ON_TIME
) -> dict[str, list[tuple[str, int, float | None, int]]]:
    """The leaderboard from first principles: best per (student, GPU model) by level, then
    speedup (none last), then the earliest, of the on-time submissions (every one with
    Scope.ALL); with the student's count of all their submissions."""
    subs = session.scalars(select(Submission).where(Submission.checkpoint == checkpoint)).all()
    counts: dict[int, int] = {}
    for s in subs:
        counts[s.user_id] = counts.get(s.user_id, 0) + 1
    best: dict[tuple[int, str], Submission] = {}
    for s in subs:
        if s.status != Status.DONE or s.level is None or (scope is Scope.ON_TIME and s.late):
            continue
        key = (s.user_id, s.gpu_model or "cpu")
        rank = (-s.level, -(s.speedup if s.speedup is not None else float("-inf")), s.id)
        cur = best.get(key)
        if cur is None or rank < (
            -cur.level,  # type: ignore[operator]
            -(cur.speedup if cur.speedup is not None else float("-inf")),
            cur.id,
        ):
            best[key] = s
    names = {u.id: u.name for u in session.scalars(select(User))}
    ranked: dict[str, list[Submission]] = {}
    for (_uid, gpu), sub in best.items():
        ranked.setdefault(gpu, []).append(sub)
    out: Board = {}
    for gpu, rows in ranked.items():
        rows.sort(
            key=lambda r: (-(r.level or 0), -(r.speedup if r.speedup is not None else -1e9), r.id)
        )
        out[gpu] = [(names[r.user_id], r.level, r.speedup, counts[r.user_id]) for r in rows]  # type: ignore[misc]
    return out


def read(session: Session, checkpoint: str, scope: Scope = Scope.ON_TIME) -> Board:
    return {
        gpu: [(e.student, e.level, e.speedup, e.submissions) for e in entries]
        for gpu, entries in boards.best(session, checkpoint, scope=scope).items()
    }


def random_history(make: type[Session] | object, seed: int, steps: int = 120) -> None:
    rng = random.Random(seed)
    with make() as s:  # type: ignore[operator]
        users = [User(name=f"u{i}", role="student") for i in range(6)]
        s.add_all(users)
        s.commit()
        uids = [u.id for u in users]
    for _ in range(steps):
        with make() as s:  # type: ignore[operator]
            ids = s.scalars(select(Submission.id)).all()
            op = rng.random()
            if op < 0.35 or not ids:  # admission
                s.add(
                    Submission(
                        user_id=rng.choice(uids),
                        checkpoint=rng.choice(CHECKPOINTS),
                        source="x",
                        late=rng.random() < 0.3,
                    )
                )
            elif op < 0.7:  # a worker's finish, Core update as lifecycle.finish does it
                level = rng.randint(0, 3)
                s.execute(
                    update(Submission)
                    .where(Submission.id == rng.choice(ids))
                    .values(
                        status=Status.DONE,
                        stage=Stage.DONE,
                        level=level,
                        speedup=round(rng.uniform(0.5, 3), 2) if level >= 2 else None,
                        gpu_model=rng.choice(GPUS),
                    )
                )
            elif op < 0.8:  # an override through the ORM
                sub = s.get(Submission, rng.choice(ids))
                assert sub is not None
                sub.level = rng.randint(0, 4)
            elif op < 0.85:  # re-queued for the GPU stage
                s.execute(
                    update(Submission)
                    .where(Submission.id == rng.choice(ids))
                    .values(status=Status.QUEUED, stage=Stage.GPU)
                )
            elif op < 0.89:  # a moved deadline marks it late, or on time, again
                s.execute(
                    update(Submission)
                    .where(Submission.id == rng.choice(ids))
                    .values(late=rng.random() < 0.5)
                )
            elif op < 0.92:  # moved to another student or checkpoint (raw data fixes)
                s.execute(
                    update(Submission)
                    .where(Submission.id == rng.choice(ids))
                    .values(user_id=rng.choice(uids), checkpoint=rng.choice(CHECKPOINTS))
                )
            else:
                s.execute(delete(Submission).where(Submission.id == rng.choice(ids)))
            s.commit()
        with make() as s:  # type: ignore[operator]
            for cp in CHECKPOINTS:
                for scope in Scope:
                    assert read(s, cp, scope) == expected(s, cp, scope)


@pytest.mark.parametrize("seed", [1, 2])
def test_standings_follow_every_change_on_postgresql(
    service_env: dict[str, str], seed: int
) -> None:
    from app.db import sessions

    random_history(sessions(), seed)


def test_standings_follow_every_change_on_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli.host import migrate
    from app.db import sessions
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_HOME", str(tmp_path))
    monkeypatch.delenv("KGRADE_DATABASE_URL", raising=False)
    monkeypatch.delenv("KGRADE_REDIS_URL", raising=False)
    get_settings.cache_clear()
    try:
        migrate()
        random_history(sessions(), 3, steps=60)
    finally:
        get_settings.cache_clear()


def test_two_workers_finishing_one_students_submissions_at_once(
    service_env: dict[str, str],
) -> None:
    """Both finishes commit, and the standing is the better one. Without the trigger's lock
    on the (checkpoint, student) pair, the second refresh would insert a row the first had
    just inserted: a primary-key violation failing the worker's finish."""
    from app.db import sessions

    make = sessions()
    with make() as s:
        u = User(name="ann", role="student")
        s.add(u)
        s.flush()
        a = Submission(user_id=u.id, checkpoint="c3a-softmax", source="a")
        b = Submission(user_id=u.id, checkpoint="c3a-softmax", source="b")
        s.add_all([a, b])
        s.commit()
        ids = [a.id, b.id]
    for round_ in range(5):
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def finish(
            sid: int,
            speedup: float,
            barrier: threading.Barrier = barrier,
            errors: list[BaseException] = errors,
        ) -> None:
            try:
                with make() as s:
                    barrier.wait(timeout=10)  # both finish at once
                    s.execute(
                        update(Submission)
                        .where(Submission.id == sid)
                        .values(status=Status.DONE, level=3, speedup=speedup, gpu_model="h200")
                    )
                    time.sleep(0.3)  # hold the uncommitted refresh while the other one runs
                    s.commit()
            except BaseException as exc:
                errors.append(exc)

        threads = [
            threading.Thread(target=finish, args=(ids[0], 1.5 + round_)),
            threading.Thread(target=finish, args=(ids[1], 1.2 + round_)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert not errors, errors
        with make() as s:
            for scope in Scope:
                rows = s.scalars(select(Standing).where(Standing.scope == scope)).all()
                assert [(r.submission_id, r.speedup) for r in rows] == [(ids[0], 1.5 + round_)]

"""The database as the source of truth: compare-and-set claims, leases, give-up, reconcile."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from app.db import transaction
from app.models import Stage, Status, Submission, User, now
from app.settings import get_settings
from app.submissions import lifecycle
from grader import GradeResult, Verdict


def _submission(stage: Stage = Stage.PRECHECK) -> int:
    with transaction() as s:
        user = s.query(User).first() or User(name="ann", role="student")
        s.add(user)
        s.flush()
        sub = Submission(user_id=user.id, checkpoint="c3a-softmax", source="x", stage=stage)
        s.add(sub)
        s.flush()
        return sub.id


def _result(level: int = 2) -> GradeResult:
    return GradeResult(checkpoint="c3a-softmax", verdict=Verdict.CORRECT, level=level, device="cpu")


def test_only_one_of_two_workers_claims(service_env) -> None:  # type: ignore[no-untyped-def]
    sid = _submission()
    s = get_settings()
    with transaction() as a:
        first = lifecycle.claim(a, sid, Stage.PRECHECK, "w1", s)
    with transaction() as b:
        second = lifecycle.claim(b, sid, Stage.PRECHECK, "w2", s)
    assert first is not None and first.attempt == 1
    assert second is None


def test_a_worker_that_lost_its_lease_cannot_write(service_env) -> None:  # type: ignore[no-untyped-def]
    sid = _submission()
    s = get_settings()
    with transaction() as t:
        old = lifecycle.claim(t, sid, Stage.PRECHECK, "w1", s)
        t.execute(update(Submission).values(lease_expires_at=now() - timedelta(seconds=1)))
    with transaction() as t:
        new = lifecycle.claim(t, sid, Stage.PRECHECK, "w2", s)  # the lease expired: re-claimed
    assert old and new and new.attempt == 2
    with transaction() as t:
        assert not lifecycle.finish(t, old, _result(1))  # the stale worker is refused
        assert not lifecycle.heartbeat(t, old, s)
        assert lifecycle.finish(t, new, _result(2))
    with transaction() as t:
        row = t.get(Submission, sid)
        assert row and row.status == Status.DONE and row.level == 2 and row.verdict == "correct"


def test_precheck_advances_to_the_gpu_queue_with_a_fresh_budget(service_env) -> None:  # type: ignore[no-untyped-def]
    sid = _submission()
    s = get_settings()
    with transaction() as t:
        c = lifecycle.claim(t, sid, Stage.PRECHECK, "w1", s)
        assert c and lifecycle.advance_to_gpu(t, c, _result(), "h200")
    with transaction() as t:
        row = t.get(Submission, sid)
        assert row and (row.status, row.stage, row.attempts) == (Status.QUEUED, Stage.GPU, 0)
        assert lifecycle.claim(t, sid, Stage.PRECHECK, "w2", s) is None  # not twice
        assert lifecycle.claim(t, sid, Stage.GPU, "g1", s) is not None


def test_reconcile_resends_lost_messages_and_gives_up_after_max_attempts(service_env) -> None:  # type: ignore[no-untyped-def]
    s = get_settings()
    lost, dead, hopeless = _submission(), _submission(), _submission()
    with transaction() as t:
        t.execute(
            update(Submission)
            .where(Submission.id == lost)
            .values(enqueued_at=now() - timedelta(seconds=s.lease_seconds + 5))
        )
        t.execute(
            update(Submission)
            .where(Submission.id == dead)
            .values(
                status=Status.RUNNING, attempts=1, lease_expires_at=now() - timedelta(seconds=1)
            )
        )
        t.execute(
            update(Submission)
            .where(Submission.id == hopeless)
            .values(
                status=Status.RUNNING,
                attempts=s.max_attempts,
                lease_expires_at=now() - timedelta(seconds=1),
            )
        )
    with transaction() as t:
        resends = lifecycle.reconcile(t, s, {})
    assert sorted(r.submission_id for r in resends) == sorted([lost, dead])
    with transaction() as t:
        row = t.get(Submission, hopeless)
        assert row and row.status == Status.DONE and row.verdict == "internal_error"
        assert row.result and "not yours" in row.result["messages"][0]
        again = lifecycle.reconcile(t, s, {})
    assert again == []  # resent rows are fresh again: no storm of duplicates

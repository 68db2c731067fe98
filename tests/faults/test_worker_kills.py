"""Workers killed with SIGKILL in the middle of a grading (the worker, its pool process and its
sandbox, all at once), again and again: nothing is lost, nothing is graded twice, and a row that
kills every worker that touches it ends as internal_error after KGRADE_MAX_ATTEMPTS."""

from __future__ import annotations

import pytest

from tests.faults.conftest import workers_up
from tests.faults.stack import Workers, wait_for

pytestmark = pytest.mark.slow


def _running_on(stack, proc, exclude: set[int] = frozenset()) -> int | None:  # type: ignore[no-untyped-def, assignment]
    name = Workers.name(proc)
    for i, r in stack.rows().items():
        if r["status"] == "running" and r["claimed_by"] == name and i not in exclude:
            return i
    return None


def test_three_kills_in_a_row_end_in_internal_error(stack, pg_url, private_redis, reconciler):  # type: ignore[no-untyped-def]
    s = stack(pg_url, private_redis().url(), max_attempts="3")
    reconciler(2.0)
    ann = s.user()
    sid = s.submit(ann)
    for attempt in (1, 2, 3):
        w = s.workers.start()
        wait_for(
            lambda w=w: _running_on(s, w) == sid,
            90,  # the first: as soon as the worker is up; the next: after the 30 s lease
            f"attempt {attempt} to start",
            0.05,
        )
        assert s.row(sid)["attempts"] == attempt
        Workers.kill(w)  # mid-grading: a vector-add precheck takes 2-3 s
    # The third attempt's lease runs out: out of attempts, the reconciler ends it.
    rows = s.settle(90, verdicts={sid: "internal_error"})
    assert rows[sid]["attempts"] == 3
    r = s.client.get(f"/api/submissions/{sid}", headers=ann).json()
    assert "failed 3 times" in r["result"]["messages"][0]


def test_kills_on_different_submissions_a_surviving_worker_finishes(  # type: ignore[no-untyped-def]
    stack, pg_url, private_redis, reconciler
) -> None:
    s = stack(pg_url, private_redis().url())
    reconciler(2.0)
    survivor = s.workers.start()
    victim = s.workers.start()
    wait_for(workers_up(2), 60, "two workers")
    users = [s.user() for _ in range(3)]
    for i in range(6):
        s.submit(users[i % 3])
    killed: set[int] = set()
    for _ in range(2):  # two kills, each on whatever the victim is grading
        wait_for(lambda v=victim: _running_on(s, v, killed) is not None, 60, "the victim to grade")
        sid = _running_on(s, victim, killed)
        assert sid is not None
        Workers.kill(victim)
        killed.add(sid)
        victim = s.workers.start()
    Workers.kill(victim)  # the survivor alone finishes everything, the killed ones included
    rows = s.settle(150)
    assert len(killed) == 2
    for sid in killed:
        assert rows[sid]["attempts"] == 2  # graded once more, by the survivor
    assert all(r["claimed_by"] == Workers.name(survivor) for i, r in rows.items() if i in killed)
    assert survivor.poll() is None

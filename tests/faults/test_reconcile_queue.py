"""The reconciler is not stuck behind a deadline's backlog (issue 21): beat's `reconcile` went to
the precheck queue, so with prechecks queued it ran only once they were all graded, and a dead
GPU worker's grading waited that long instead of its lease. Now it has a queue of its own that
every precheck worker serves beside `precheck`, taken in turn: on PostgreSQL and Redis, with 25
prechecks queued before it for one worker (over a minute of grading), the reconcile task sent as
beat sends it re-sends a grading whose worker died within seconds, the backlog still there."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.faults.conftest import VECTOR_ADD, workers_up
from tests.faults.stack import wait_for

pytestmark = pytest.mark.slow
BACKLOG = 25


def test_the_reconciler_goes_before_a_backlog_of_prechecks(  # type: ignore[no-untyped-def]
    stack, pg_url, private_redis
) -> None:
    from app.db import transaction
    from app.jobs.celery_app import celery_app
    from app.jobs.names import TASK_RECONCILE
    from app.models import Stage, Status, Submission, now

    s = stack(pg_url, private_redis().url())
    s.workers.start()
    wait_for(workers_up(1), 120, "the precheck worker")
    ann = s.user()
    for _ in range(BACKLOG):
        s.submit(ann)
    with transaction() as session:  # a grading whose worker died: running, its lease run out
        user_id = session.query(Submission.user_id).first()[0]  # type: ignore[index]
        dead = Submission(
            user_id=user_id,
            checkpoint="c3a-vector-add",
            source=VECTOR_ADD,
            status=Status.RUNNING,
            stage=Stage.PRECHECK,
            attempts=1,
            claimed_by="gone:1",
            lease_expires_at=now() - timedelta(minutes=1),
        )
        session.add(dead)
        session.flush()
        dead_id = dead.id
    s.accepted[dead_id] = ""  # one of the rows now
    beat = celery_app().conf.beat_schedule["reconcile"]
    celery_app().send_task(beat["task"], queue=beat["options"]["queue"])  # as beat sends it
    assert beat["task"] == TASK_RECONCILE

    wait_for(lambda: s.row(dead_id)["claimed_by"] != "gone:1", 30, "the reconciler to run", 0.2)
    waiting = sum(1 for r in s.rows().values() if r["status"] != "done")
    assert waiting >= BACKLOG - 10, f"the reconciler ran only after the backlog ({waiting} left)"

"""The broker fails: Redis crashes (SIGKILL) and comes back with jobs queued and one running, with
and without its append-only file; a message is lost outright. The database is the source of
truth, so every accepted submission is graded exactly once either way."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from tests.faults.conftest import workers_up
from tests.faults.stack import wait_for
from tests.service.conftest import signin_form

pytestmark = pytest.mark.slow


def _running(s) -> bool:  # type: ignore[no-untyped-def]
    return any(r["status"] == "running" for r in s.rows().values())


@pytest.mark.parametrize("appendonly", [True, False], ids=["appendonly", "no-persistence"])
def test_redis_crashes_with_jobs_queued_and_running(  # type: ignore[no-untyped-def]
    stack, pg_url, private_redis, reconciler, appendonly: bool
) -> None:
    redis = private_redis(appendonly)
    s = stack(pg_url, redis.url())
    reconciler(2.0)
    s.workers.start()
    wait_for(workers_up(1), 60, "the worker")
    users = [s.user() for _ in range(2)]
    for i in range(5):
        s.submit(users[i % 2])
    wait_for(lambda: _running(s), 60, "a grading to start", 0.05)
    time.sleep(1.5)  # past the append-only file's once-a-second fsync
    queued = redis.client().llen("precheck")
    assert queued >= 1  # jobs waiting behind the running one
    redis.kill()
    status, _ = s.post(users[0])  # the broker is down: refused, nothing stored
    assert status == 503
    time.sleep(2)
    redis.start()
    survived = redis.client().llen("precheck")
    # With the append-only file the queue comes back; without, it is gone and only the
    # reconciler (queued longer than a lease: re-sent) brings the rows back.
    assert survived >= 1 if appendonly else survived == 0
    rows = s.settle(180)
    attempts = Counter(r["attempts"] for r in rows.values())
    print(f"queued {queued}, after restart {survived}; attempts {dict(attempts)}")


def test_a_lost_message_is_sent_again_by_the_reconciler(stack, pg_url, private_redis) -> None:  # type: ignore[no-untyped-def]
    redis = private_redis()
    s = stack(pg_url, redis.url())
    ann = s.user()
    lost = [s.submit(ann) for _ in range(2)]
    assert redis.client().llen("precheck") == 2
    redis.client().delete("precheck")  # the messages are gone; the rows still say queued
    s.workers.start(beat=True)  # the deployment's reconciler: beat, every 30 s
    wait_for(workers_up(1), 60, "the worker")
    time.sleep(5)
    assert all(s.row(i)["status"] == "queued" for i in lost)  # nothing to consume
    rows = s.settle(120)
    assert all(rows[i]["attempts"] == 1 for i in lost)  # sent again once, graded once


def test_a_send_refused_after_the_commit_loses_nothing_api_or_page(  # type: ignore[no-untyped-def]
    stack, pg_url, private_redis
) -> None:
    """Redis answers PING (admission's broker check) but refuses writes (over its maxmemory, as
    a full production broker with noeviction does): the row is committed first, so both the API
    and the submit page answer as for any accepted submission, and the reconciler sends the
    message once Redis takes writes again."""
    import re

    from tests.faults.conftest import CHECKPOINT, VECTOR_ADD

    redis = private_redis()
    s = stack(pg_url, redis.url())
    token = s.user()["Authorization"].split()[1]
    redis.client().config_set("maxmemory", 1)  # every write now fails with OOM

    api, _ = s.post({"Authorization": f"Bearer {token}"})
    assert api == 201
    page = s.client
    assert (
        page.post(
            "/signin", data=signin_form(page, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.get("/submit").text)
    assert csrf is not None
    r = page.post(
        "/submit",
        data={"checkpoint": CHECKPOINT, "csrf": csrf.group(1), "source": VECTOR_ADD},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].startswith("/submissions/"), r.text
    rows = s.rows()
    assert len(rows) == 2 and all(row["status"] == "queued" for row in rows.values())
    assert redis.client().llen("precheck") == 0  # nothing was sent

    redis.client().config_set("maxmemory", 0)
    from datetime import timedelta

    from sqlalchemy import update

    from app.db import transaction
    from app.models import Submission, now
    from worker import tasks

    with transaction() as t:  # queued for longer than a lease: the reconciler's case
        t.execute(update(Submission).values(enqueued_at=now() - timedelta(hours=1)))
    assert tasks.reconcile() == 2
    assert redis.client().llen("precheck") == 2

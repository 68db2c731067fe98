"""The reconciler leaves queued work alone, on Redis and on the embedded SQLite broker: with a
backlog waiting in line for one worker longer than a lease (as a deadline's burst waits behind
one busy worker), a reconcile pass sends nothing again and counts nothing lost; a message the
broker really lost (taken out of it here) is sent again, once, and counted lost; a grading
whose worker died (claimed, lease expired) is sent again. (It once re-sent every row queued
longer than a lease: 100 "lost" for a 50-submission burst, the backlog doubled each pass.)"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select, text, update

from tests.service.test_deadline_zones import _headers, _user, backend  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
BACKLOG = 6


def _lost_events() -> int:
    from app.db import sessions
    from app.models import GradingEvent
    from app.submissions.events import MESSAGE_LOST

    with sessions()() as s:
        q = select(func.count()).select_from(GradingEvent).where(GradingEvent.kind == MESSAGE_LOST)
        return int(s.scalar(q) or 0)


def _waited_long() -> None:
    """Every queued row has waited in line for two leases."""
    from app.db import transaction
    from app.models import Status, Submission, now
    from app.settings import get_settings

    back = now() - timedelta(seconds=2 * get_settings().lease_seconds)
    with transaction() as s:
        s.execute(
            update(Submission).where(Submission.status == Status.QUEUED).values(enqueued_at=back)
        )


def _held() -> set[int]:
    from app.jobs import census
    from app.jobs.names import TASK_PRECHECK

    found = census.held(["precheck"])
    assert found is not None
    return {sid for task, sid in found if task == TASK_PRECHECK}


def _lose_one() -> None:
    """The broker loses one message (a Redis restart without persistence, say)."""
    from app.settings import get_settings

    url = get_settings().broker_url
    if url.startswith("redis"):
        import redis

        assert redis.Redis.from_url(url).rpop("precheck")
        return
    from sqlalchemy import create_engine

    engine = create_engine(url.removeprefix("sqla+"))
    with engine.begin() as conn:
        conn.execute(
            text("DELETE FROM kombu_message WHERE id = (SELECT min(id) FROM kombu_message)")
        )
    engine.dispose()


def test_a_backlog_waiting_in_line_is_left_alone_and_a_lost_message_sent_again(
    backend: dict[str, str],  # noqa: F811
) -> None:
    from app.db import transaction
    from app.main import create_app
    from app.models import Status, Submission, now
    from worker.tasks import reconcile

    client, ann = TestClient(create_app()), _headers(_user("ann", "student"))
    ids = []
    for _ in range(BACKLOG):
        r = client.post(
            "/api/submissions", headers=ann, json={"checkpoint": "c3a-vector-add", "source": SOURCE}
        )
        assert r.status_code == 201, r.text
        ids.append(int(r.json()["id"]))
    assert _held() == set(ids)
    _waited_long()
    assert reconcile() == 0  # all of them wait in line: nothing sent twice
    assert reconcile() == 0
    assert _lost_events() == 0 and _held() == set(ids)

    _lose_one()
    [gone] = set(ids) - _held()
    assert reconcile() == 1  # that one alone, once
    assert _lost_events() == 1 and _held() == set(ids)
    _waited_long()
    assert reconcile() == 0 and _lost_events() == 1  # its new message waits in line too

    with transaction() as s:  # a grading whose worker died: claimed, its lease run out
        s.execute(
            update(Submission)
            .where(Submission.id == ids[-1])
            .values(
                status=Status.RUNNING,
                attempts=1,
                claimed_by="gone:1",
                lease_expires_at=now() - timedelta(minutes=1),
            )
        )
    assert reconcile() == 1 and _lost_events() == 1  # a lease expiry, not a lost message
    assert gone in ids

"""PostgreSQL (a cluster of the test's own) restarted while submissions are being posted and
graded: posts during the outage get a clean 503 and store nothing; every accepted one is graded
exactly once, the gradings cut off by the outage after their lease by the reconciler."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.faults.conftest import workers_up
from tests.faults.stack import PrivatePostgres, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture
def private_pg() -> Iterator[PrivatePostgres]:
    pg = PrivatePostgres()
    yield pg
    pg.destroy()


def test_postgres_restarted_under_traffic(  # type: ignore[no-untyped-def]
    stack, private_pg, private_redis, reconciler
) -> None:
    s = stack(private_pg.url(), private_redis().url())
    reconciler(2.0)
    s.workers.start()
    s.workers.start()
    wait_for(workers_up(2), 60, "two workers")
    users = [s.user() for _ in range(4)]
    posted: list[tuple[int, str]] = []
    stop = threading.Event()

    def traffic() -> None:
        i = 0
        while not stop.is_set():
            posted.append(s.post(users[i % len(users)]))
            i += 1
            time.sleep(0.5)

    t = threading.Thread(target=traffic, daemon=True)
    t.start()
    wait_for(lambda: any(r["status"] == "running" for r in s.rows().values()), 60, "gradings", 0.05)
    private_pg.stop("fast")  # clients cut off, transactions in flight rolled back
    time.sleep(4)
    private_pg.start()
    time.sleep(4)  # traffic goes on after the restart
    stop.set()
    t.join(timeout=60)

    codes = Counter(code for code, _ in posted)
    assert set(codes) <= {201, 503}, codes  # never a 500, never a hang
    assert codes[503] >= 1 and codes[201] >= 4, codes
    rows = s.settle(180)
    stored = {r["marker"] for r in rows.values()}
    refused = {m for code, m in posted if code == 503}
    assert not stored & refused, "a submission refused with 503 was stored"
    print(f"posted {dict(codes)}; attempts {dict(Counter(r['attempts'] for r in rows.values()))}")

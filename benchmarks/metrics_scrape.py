"""What one /metrics scrape costs at course scale, on PostgreSQL and Redis.

Seeds a database of its own (built by the migrations) with a course's term: N submissions of
500 students (most done, some queued and running), about 2.1 grading events per submission
(each stored stage result with its seconds, plus retries, lease expiries, lost messages and
give-ups in small proportions) and 20 workers; then times the collector (`app.metrics.service
.exposition`, the whole text of one scrape: six aggregate queries and the Redis queue lengths)
over repeated scrapes, a fresh session each, and shows each query's plan.

    .venv/bin/python benchmarks/metrics_scrape.py [--submissions 100000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import _common as c
import psycopg

# The standings triggers (which /metrics never reads) are off while seeding: replica role.
SEED = """
SET session_replication_role = replica;
INSERT INTO users (id, name, role, created_at)
SELECT i, 'student' || i, 'student', now() FROM generate_series(1, 500) i;
INSERT INTO submissions (user_id, checkpoint, source, status, stage, attempts, enqueued_at,
    created_at, finished_at, verdict, level, gpu_model)
SELECT 1 + i % 500, 'c3a-softmax', '# ' || i,
       CASE WHEN i % 100 = 0 THEN 'queued' WHEN i % 100 = 1 THEN 'running' ELSE 'done' END,
       CASE WHEN i % 100 IN (0, 1) THEN 'precheck' ELSE 'done' END,
       1, now(), now(), now(),
       CASE WHEN i % 3 = 0 THEN 'wrong_answer' ELSE 'correct' END, 2, 'h200'
FROM generate_series(1, %(n)s) i;
INSERT INTO grading_events (submission_id, stage, kind, verdict, seconds, at)
SELECT i, 'precheck', 'graded', CASE WHEN i % 3 = 0 THEN 'wrong_answer' ELSE 'correct' END,
       2 + (i % 50), now()
FROM generate_series(1, %(n)s) i;
INSERT INTO grading_events (submission_id, stage, kind, verdict, seconds, at)
SELECT i, 'gpu', 'graded', 'correct', 15 + (i % 200), now()
FROM generate_series(1, %(n)s) i WHERE i % 3 <> 0;
INSERT INTO grading_events (submission_id, stage, kind, at)
SELECT i, CASE WHEN i % 2 = 0 THEN 'gpu' ELSE 'precheck' END,
       (ARRAY['retry', 'lease_expired', 'message_lost', 'gave_up'])[1 + i % 4], now()
FROM generate_series(1, %(n)s / 10) i;
INSERT INTO workers (name, queues, gpu, last_seen)
SELECT 'w' || i, CASE WHEN i <= 8 THEN 'gpu.h200' ELSE 'precheck' END,
       CASE WHEN i <= 8 THEN 'NVIDIA H200' END, now()
FROM generate_series(1, 20) i;
SET session_replication_role = DEFAULT;
ANALYZE;
"""


def measure(db_url: str, redis_url: str, repeat: int) -> dict[str, Any]:
    os.environ.update(KGRADE_DATABASE_URL=db_url, KGRADE_REDIS_URL=redis_url)
    from app.db import sessions
    from app.metrics import service
    from app.settings import get_settings

    get_settings.cache_clear()
    s = get_settings()
    walls, cpus, size = [], [], 0
    for _ in range(repeat):
        with sessions()() as session:
            t, p = time.perf_counter(), time.process_time()
            body, _ = service.exposition(session, s)
            walls.append(time.perf_counter() - t)
            cpus.append(time.process_time() - p)
            size = len(body)
    return {
        "p50_ms": 1000 * c.pct(walls, 50),
        "p95_ms": 1000 * c.pct(walls, 95),
        "cpu_p50_ms": 1000 * c.pct(cpus, 50),
        "bytes": size,
        "walls_ms": [round(1000 * w, 2) for w in walls],
    }


PLANS = [
    "SELECT kind, stage, verdict, count(*) FROM grading_events GROUP BY kind, stage, verdict",
    "SELECT stage, count(*) FILTER (WHERE seconds IS NOT NULL), sum(seconds) "
    "FROM grading_events WHERE kind = 'graded' GROUP BY stage",
    "SELECT status, stage, count(*) FROM submissions GROUP BY status, stage",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--submissions", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    db = f"kgrade_bench_metrics_{os.getpid()}"
    c.create_db(db)
    try:
        url = c.sqlalchemy_url(db)
        c.migrate(url)
        t = time.monotonic()
        with psycopg.connect(c.libpq_url(db), autocommit=True) as conn:
            conn.execute(SEED.replace("%(n)s", str(args.submissions)))
            events = conn.execute("SELECT count(*) FROM grading_events").fetchone()
            plans = [
                "\n".join(r[0] for r in conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) {q}"))
                for q in PLANS
            ]
        seeded = time.monotonic() - t
        result = measure(url, f"{c.REDIS_BASE}/15", args.repeat)
    finally:
        c.drop_db(db)
    n_events = int(events[0]) if events else 0
    lines = [
        f"/metrics scrape cost, {c.DATE}: python benchmarks/metrics_scrape.py "
        f"--submissions {args.submissions} --repeat {args.repeat}",
        str(c.machine()),
        f"{args.submissions} submissions, {n_events} grading events, 20 workers "
        f"(seeded in {seeded:.1f} s)",
        f"one scrape (the collector, {result['bytes']} bytes of text): p50 "
        f"{result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms wall; "
        f"{result['cpu_p50_ms']:.1f} ms CPU in this process (p50)",
        f"each scrape, ms: {result['walls_ms']}",
        "",
        *[f"EXPLAIN ANALYZE {q}\n{p}\n" for q, p in zip(PLANS, plans, strict=True)],
    ]
    text = "\n".join(lines)
    c.write("metrics-scrape", {"args": vars(args), "events": n_events, **result}, text)
    print(text)


if __name__ == "__main__":
    main()

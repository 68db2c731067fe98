"""What the deadlines migration's second standings scope costs a write of `submissions`.

Since 2026_12_01_1200 the triggers on `submissions` refresh a (checkpoint, student) pair's
standings twice (the `on_time` scope, then `all`). This builds one PostgreSQL database of its
own with the migrations up to the revision before (c4a7e91d2b60), seeds it (students × their
submissions to one checkpoint, graded on two GPU models and the CPU), times a worker's finish
(an UPDATE of one submission's level and speedup, committed) and an admission (an INSERT,
committed), then runs the migration (timed: it rebuilds `standings` in both scopes) and times
the same writes again on the same data. p50 / p95 in ms over --calls calls each, a fresh
random submission (or student) each call.

    .venv/bin/python benchmarks/standings_scope.py [--students 2000] [--per-student 25]
        [--calls 200]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time
from typing import Any

import _common as c
import psycopg

BEFORE = "c4a7e91d2b60"
DB = "kgrade_bench_standings_scope"

SEED = """
INSERT INTO users (id, name, role, created_at, session_version)
SELECT i, 'student' || i, 'student', now(), 0 FROM generate_series(1, %(students)s) i;
INSERT INTO submissions (user_id, checkpoint, source, status, stage, attempts, enqueued_at,
    created_at, verdict, level, speedup, gpu_model)
SELECT 1 + (i %% %(students)s), 'c3a-softmax', 'x', 'done', 'done', 1, now(), now(),
       'correct', i %% 4, CASE WHEN i %% 4 >= 2 THEN 0.5 + (i %% 97) / 40.0 END,
       (ARRAY['h200', 'rtx5090', NULL])[1 + i %% 3]
FROM generate_series(1, %(rows)s) i;
"""


def _old_standings() -> str:
    """The standings of every pair, as the revision before builds them (its own query)."""
    path = c.ROOT / "migrations" / "versions" / "2026_11_29_2110-standings.py"
    spec = importlib.util.spec_from_file_location("standings_migration", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return f"INSERT INTO standings ({mod.COLUMNS}) {mod.BEST.format(where='TRUE')}"


def _alembic(url: str, revision: str) -> None:
    from alembic import command

    from app.cli.service_cmd import alembic_config

    command.upgrade(alembic_config(url), revision)


def _time(conn: psycopg.Connection[Any], calls: int, rows: int, students: int) -> dict[str, Any]:
    rng = random.Random(7)
    out: dict[str, list[float]] = {"finish": [], "admission": []}
    for _ in range(calls):
        t = time.perf_counter()
        conn.execute(
            "UPDATE submissions SET level = %s, speedup = %s WHERE id = %s",
            (rng.randint(0, 3), round(rng.uniform(0.5, 3), 3), rng.randint(1, rows)),
        )
        conn.commit()
        out["finish"].append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        conn.execute(
            "INSERT INTO submissions (user_id, checkpoint, source, status, stage, attempts, "
            "enqueued_at, created_at) VALUES (%s, 'c3a-softmax', 'x', 'queued', 'precheck', 0, "
            "now(), now())",
            (rng.randint(1, students),),
        )
        conn.commit()
        out["admission"].append((time.perf_counter() - t) * 1e3)
    return {k: {"p50": c.pct(v, 50), "p95": c.pct(v, 95)} for k, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=2000)
    ap.add_argument("--per-student", type=int, default=25)
    ap.add_argument("--calls", type=int, default=200)
    a = ap.parse_args()
    rows = a.students * a.per_student
    c.create_db(DB)
    url = c.sqlalchemy_url(DB)
    try:
        _alembic(url, BEFORE)
        with psycopg.connect(c.libpq_url(DB)) as conn:
            # seeded with the triggers off (a refresh per seeded row took minutes), then the
            # standings built whole by the old migration's own query
            conn.execute("ALTER TABLE submissions DISABLE TRIGGER USER")
            for statement in SEED.split(";\n")[:2]:
                conn.execute(statement, {"students": a.students, "rows": rows})
            conn.execute("ALTER TABLE submissions ENABLE TRIGGER USER")
            conn.execute(_old_standings())
            conn.commit()
            conn.execute("ANALYZE")
            conn.commit()
            before = _time(conn, a.calls, rows, a.students)
        t = time.perf_counter()
        _alembic(url, "head")
        migration_s = time.perf_counter() - t
        with psycopg.connect(c.libpq_url(DB)) as conn:
            conn.execute("ANALYZE")
            conn.commit()
            after = _time(conn, a.calls, rows, a.students)
    finally:
        c.drop_db(DB)
    lines = [
        c.uptime(),
        f"{a.students} students x {a.per_student} submissions = {rows} rows, one checkpoint; "
        f"{a.calls} calls each",
        f"migration to head (standings rebuilt in both scopes): {migration_s:.2f} s",
        "path        one scope p50 / p95 ms    two scopes p50 / p95 ms",
    ]
    for k in ("finish", "admission"):
        b, h = before[k], after[k]
        lines.append(
            f"{k:<11} {b['p50']:6.2f} / {b['p95']:6.2f}           {h['p50']:6.2f} / {h['p95']:6.2f}"
        )
    text = "\n".join(lines)
    print(text)
    c.write(
        "standings-scope",
        {
            "machine": c.machine(),
            "args": vars(a),
            "before": before,
            "after": after,
            "migration_s": migration_s,
        },
        text,
    )


if __name__ == "__main__":
    main()

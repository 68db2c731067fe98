"""Leaderboard, CSV export, history and submission-page queries at course scale.

Seeds a dedicated PostgreSQL database, built by the Alembic migrations, with 10k users and 1M
submissions (generate_series: four checkpoints of unequal popularity, a few heavy submitters,
verdicts, levels, GPU models and speedups in realistic proportions, sources of 1–4 KB, result
JSON), then times the app's own code paths (p50/p95 over repeated calls, a fresh session each)
three ways on the same data:

* `baseline`: the code of git revision --baseline (default: before this work) on the schema
  before the index migration — what was there;
* `code`: the current code on that same schema — what the query rewrites alone do;
* `indexed`: the current code after `alembic upgrade head` — rewrites, indexes and the
  `standings` table the leaderboard reads (the current leaderboard cannot run on the older
  schema: `-` in the `code` column).

Every SELECT a path issues is shown with EXPLAIN (ANALYZE, BUFFERS) in the text file.

    .venv/bin/python benchmarks/db_scale.py [--users 10000] [--submissions 1000000] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _common as c
import psycopg

INDEX_REVISION = "a7e2b9c41d05"  # migrations/versions/2026_11_29_2040-leaderboard_indexes.py
LOG = print

SEED_USERS = """
INSERT INTO users (id, name, role, token_hash, created_at)
SELECT i,
       CASE WHEN i <= 10 THEN 'admin' || i WHEN i <= 50 THEN 'prof' || i
            ELSE 'student' || lpad(i::text, 5, '0') END,
       CASE WHEN i <= 10 THEN 'admin' WHEN i <= 50 THEN 'instructor' ELSE 'student' END,
       encode(sha256(('token-' || i)::bytea), 'hex'),
       timestamptz '2026-09-01' + i * interval '1 minute'
FROM generate_series(1, %(users)s) i
"""

# One row per i; r[k] are independent draws. Student ids skew low: a few submit hundreds.
SEED_SUBMISSIONS = """
INSERT INTO submissions (user_id, checkpoint, source, explanation, status, stage, attempts,
    claimed_by, lease_expires_at, enqueued_at, created_at, finished_at,
    verdict, level, speedup, gpu_model, result)
SELECT user_id, cp, '# submission ' || i || E'\\n' || src, NULL, st,
       CASE WHEN st = 'done' THEN 'done' ELSE 'precheck' END,
       CASE WHEN st = 'queued' THEN 0 ELSE 1 END,
       CASE WHEN st = 'running' THEN 'bench@host' END,
       CASE WHEN st = 'running' THEN created + interval '15 minutes' END,
       created, created,
       CASE WHEN st = 'done' THEN created + interval '40 seconds' END,
       verdict, level, speedup, gpu,
       CASE WHEN st = 'done' THEN json_build_object(
           'checkpoint', cp, 'verdict', verdict, 'level', level, 'device', coalesce(gpu, 'cpu'),
           'cases', %(cases)s::json, 'messages', json_build_array('seeded row ' || i),
           'stages', json_build_object('static', 0.01, 'run', 4.2)) END
FROM (
  SELECT i, user_id, cp, src, st, verdict, gpu, created,
         CASE WHEN verdict = 'correct' AND gpu IS NOT NULL THEN speedup END AS speedup,
         CASE WHEN st <> 'done' THEN NULL
              WHEN verdict = 'correct' AND gpu IS NOT NULL AND speedup >= 1
                   THEN CASE WHEN r4 < 0.02 THEN 4 ELSE 3 END
              WHEN verdict = 'correct' THEN 2
              WHEN verdict = 'wrong_answer' THEN 1 ELSE 0 END AS level
  FROM (
    SELECT i, r4,
           51 + floor((%(users)s - 50) * power(r1, 1.3))::int AS user_id,
           CASE WHEN r2 < 0.35 THEN 'c3a-vector-add' WHEN r2 < 0.65 THEN 'c3a-softmax'
                WHEN r2 < 0.85 THEN 'c3a-rmsnorm' ELSE 'c3a-cross-entropy' END AS cp,
           (%(sources)s::text[])[1 + floor(r2 * 4)::int] AS src,
           CASE WHEN r3 < 0.995 THEN 'done' WHEN r3 < 0.998 THEN 'queued'
                ELSE 'running' END AS st,
           CASE WHEN r3 >= 0.995 THEN NULL WHEN r5 < 0.55 THEN 'correct'
                WHEN r5 < 0.80 THEN 'wrong_answer' WHEN r5 < 0.90 THEN 'compile_error'
                WHEN r5 < 0.95 THEN 'runtime_error' WHEN r5 < 0.98 THEN 'time_limit'
                WHEN r5 < 0.99 THEN 'forbidden' ELSE 'internal_error' END AS verdict,
           CASE WHEN r6 < 0.45 THEN 'h200' WHEN r6 < 0.75 THEN 'rtx5090' END AS gpu,
           exp((r7 + r8 + r9 - 1.5) * 0.6 + 0.1) AS speedup,
           CASE WHEN r3 < 0.995 THEN timestamptz '2026-11-29 20:00' - r8 * interval '90 days'
                ELSE timestamptz '2026-11-29 20:00' - r8 * interval '1 hour' END AS created
    FROM (SELECT i, random() r1, random() r2, random() r3, random() r4, random() r5,
                 random() r6, random() r7, random() r8, random() r9
          FROM generate_series(1, %(n)s) i) draws
  ) s
) t
"""

SEED_EVIDENCE = """
INSERT INTO evidence (submission_id, url, status, created_at)
SELECT id, 'https://github.com/pytorch/pytorch/pull/' || id,
       CASE WHEN mod(id, 10) = 0 THEN 'pending' ELSE 'approved' END, created_at
FROM submissions WHERE level = 4
"""


def cases_json() -> str:
    case = {"name": "odd-width", "passed": True, "max_abs_err": 1.2e-7, "message": "",
            "shape": [4, 781], "dtype": "float32", "draw": 0, "config": None}  # fmt: skip
    return json.dumps([{**case, "name": f"case-{k}"} for k in range(7)])


def seed(url: str, users: int, n: int) -> float:
    sources = [
        (c.ROOT / "reference_kernels" / f"c3a_{name}" / "reference.py").read_text()
        for name in ("vector_add", "softmax", "rmsnorm", "cross_entropy")
    ]
    t0 = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT setseed(0.29)")
        conn.execute(SEED_USERS, {"users": users})
        conn.execute("SELECT setval(pg_get_serial_sequence('users', 'id'), %s)", [users])
        done = 0
        while done < n:  # in chunks: one transaction of 1M wide rows needs a lot of WAL
            k = min(200_000, n - done)
            p = {"users": users, "n": k, "cases": cases_json(), "sources": sources}
            conn.execute(SEED_SUBMISSIONS, p)
            done += k
            LOG(f"  seeded {done} submissions ({time.perf_counter() - t0:.0f} s)", flush=True)
        conn.execute(SEED_EVIDENCE)
        conn.execute("VACUUM ANALYZE")
    return time.perf_counter() - t0


def fresh_queue(url: str) -> None:
    """Queued and running rows as a live deployment has them: recent, leases valid, and ten of
    each stale (a lost message, a dead worker) for the reconciler to find."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE submissions SET enqueued_at = now() - random() * interval '5 minutes', "
            "lease_expires_at = CASE WHEN status = 'running' THEN now() + interval '10 minutes' "
            "END WHERE status <> 'done'"
        )
        for status, column in ("queued", "enqueued_at"), ("running", "lease_expires_at"):
            conn.execute(
                f"UPDATE submissions SET {column} = now() - interval '1 hour' WHERE id IN "
                f"(SELECT id FROM submissions WHERE status = '{status}' ORDER BY id LIMIT 10)"
            )


def alembic_upgrade(db_url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(c.ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(c.ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db_url)
    command.upgrade(cfg, revision)


def alembic_downgrade(db_url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(c.ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(c.ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db_url)
    command.downgrade(cfg, revision)


def before_index_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config(str(c.ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(c.ROOT / "migrations"))
    down = ScriptDirectory.from_config(cfg).get_revision(INDEX_REVISION).down_revision
    assert isinstance(down, str)
    return down


# ---- measure: runs in a subprocess whose working directory is the code under test ----------


def measure(db_url: str, repeat: int, explain: bool) -> dict[str, Any]:
    sys.path.insert(0, os.getcwd())  # the code under test, not the installed checkout
    os.environ["KGRADE_DATABASE_URL"] = db_url
    os.environ["KGRADE_SUBMISSIONS_PER_HOUR"] = "1000000"
    from sqlalchemy import event, select, text

    import app
    from app.db import engine, sessions
    from app.leaderboard import service as boards

    try:  # the code under test may be a revision from before the move
        from app.leaderboard.service import csv_text
    except ImportError:
        from app.leaderboard.router import csv_text  # type: ignore[attr-defined,no-redef]
    from app.models import Submission, User
    from app.settings import get_settings
    from app.submissions import lifecycle
    from app.submissions import service as subs

    make = sessions()
    s = get_settings()
    with make() as session:
        heavy = session.get(User, 51)  # the most prolific student (ids skew low)
        typical = session.scalar(select(User).where(User.name == "student05000"))
        prof = session.scalar(select(User).where(User.role == "instructor"))
        assert heavy is not None and typical is not None and prof is not None
        n_heavy = session.scalar(text("SELECT count(*) FROM submissions WHERE user_id = 51"))

    def own_page(session: Any, i: int) -> None:
        sid = session.scalars(
            select(Submission.id).where(Submission.user_id == heavy.id).limit(1).offset(i)
        ).first()
        sub = subs.readable(session, heavy, sid)
        _ = (sub.user.name, sub.source, sub.result)

    def admit(session: Any, i: int) -> None:
        admit_one = getattr(subs, "submit", None) or subs.admit  # the admission of the revision
        admit_one(session, typical, "c3a-softmax", "print(1)", None, s)
        session.rollback()

    def reconcile(session: Any, i: int) -> None:
        lifecycle.reconcile(session, s, {})
        session.rollback()

    paths: dict[str, Any] = {
        "leaderboard c3a-vector-add (35 %)": lambda ss, i: boards.best(ss, "c3a-vector-add"),
        "leaderboard c3a-cross-entropy (15 %)": lambda ss, i: boards.best(ss, "c3a-cross-entropy"),
        "CSV export c3a-vector-add": lambda ss, i: csv_text(ss, "c3a-vector-add"),
        f"history, heaviest student ({n_heavy} rows), 100": lambda ss, i: subs.history(
            ss, heavy, checkpoint=None, student=None, limit=100
        ),
        "history page, heaviest student, softmax, 500": lambda ss, i: subs.history(
            ss, heavy, checkpoint="c3a-softmax", student=None, limit=500
        ),
        "history, typical student, 100": lambda ss, i: subs.history(
            ss, typical, checkpoint=None, student=None, limit=100
        ),
        "history, instructor ?student=heaviest": lambda ss, i: subs.history(
            ss, prof, checkpoint=None, student=heavy.name, limit=100
        ),
        "submission page (own, source + result)": own_page,
        "admission (quota query + insert), rolled back": admit,
        "reconciler pass, rolled back": reconcile,
    }
    captured: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, params: Any, ctx: Any, many: Any) -> None:
        captured.append((statement, params))

    if hasattr(boards.best, "__code__") and "limit" in boards.best.__code__.co_varnames:
        paths["leaderboard c3a-vector-add, top 100 a board"] = lambda ss, i: boards.best(
            ss, "c3a-vector-add", limit=100
        )
    out: dict[str, Any] = {"code": str(Path(app.__file__).parent.parent), "paths": {}}
    for name, fn in paths.items():
        if not _runs(make, fn):
            LOG(f"    {name:<50} needs a newer schema", file=sys.stderr, flush=True)
            continue
        times = []
        for i in range(repeat + 2):
            with make() as session:
                t0 = time.perf_counter()
                try:
                    fn(session, i)
                except Exception as exc:  # a 404 from readable() is a result too
                    if type(exc).__name__ != "ApiError":
                        raise
                dt = (time.perf_counter() - t0) * 1000
            if i >= 2:  # the first two warm the caches and the prepared statements
                times.append(dt)
        entry: dict[str, Any] = {
            "p50_ms": round(c.pct(times, 50), 2),
            "p95_ms": round(c.pct(times, 95), 2),
            "max_ms": round(max(times), 2),
            "n": len(times),
        }
        if explain:
            captured.clear()
            event.listen(engine(), "before_cursor_execute", capture)
            with make() as session:
                try:
                    fn(session, 0)
                except Exception as exc:
                    if type(exc).__name__ != "ApiError":
                        raise
            event.remove(engine(), "before_cursor_execute", capture)
            entry["plans"] = []
            for stmt, params in captured:
                if not stmt.lstrip().upper().startswith("SELECT"):
                    continue
                with engine().connect() as conn:
                    raw = conn.connection.dbapi_connection
                    assert raw is not None
                    cur = raw.cursor()
                    cur.execute("EXPLAIN (ANALYZE, BUFFERS) " + stmt, params)
                    plan = "\n".join(r[0] for r in cur.fetchall())
                    conn.rollback()
                entry["plans"].append({"sql": stmt, "params": repr(params), "plan": plan})
        out["paths"][name] = entry
        LOG(f"    {name:<50} p50 {entry['p50_ms']:>8.1f}  p95 {entry['p95_ms']:>8.1f} ms",
            file=sys.stderr, flush=True)  # fmt: skip
    return out


def _runs(make: Any, fn: Any) -> bool:
    """False when the path needs a table this schema does not have yet (the current code's
    leaderboard reads `standings`, made by a later migration than the index one)."""
    from sqlalchemy.exc import ProgrammingError

    with make() as session:
        try:
            fn(session, 0)
        except ProgrammingError:
            return False
        except Exception as exc:
            if type(exc).__name__ != "ApiError":
                raise
    return True


def run_measure(code: Path, db_url: str, repeat: int, explain: bool) -> dict[str, Any]:
    fresh_queue(db_url.replace("postgresql+psycopg://", "postgresql://"))
    argv = [c.PY, str(Path(__file__).resolve()), "--measure", db_url, "--repeat", str(repeat)]
    out = subprocess.run(
        argv + (["--explain"] if explain else []),
        cwd=code,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def table(results: dict[str, dict[str, Any]]) -> list[str]:
    labels = list(results)
    head = f"{'path':<50}" + "".join(f"{lab + ' p50/p95 ms':>24}" for lab in labels)
    lines = [head]
    names = dict.fromkeys(n for lab in labels for n in results[lab]["paths"])
    for name in names:
        row = f"{name:<50}"
        for lab in labels:
            e = results[lab]["paths"].get(name)
            row += f"{e['p50_ms']:>12.1f} /{e['p95_ms']:>9.1f}" if e else f"{'-':>24}"
        lines.append(row)
    return lines


def plans(result: dict[str, Any]) -> list[str]:
    lines = []
    for name, e in result["paths"].items():
        lines += ["", f"### {name}"]
        for p in e.get("plans", []):
            lines += ["", p["sql"].strip(), f"-- params: {p['params']}", p["plan"]]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--submissions", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--baseline", default="e03cf94", help="git revision: the code before")
    ap.add_argument("--db", default="kgrade_bench_scale")
    ap.add_argument("--keep", action="store_true", help="keep the database (reused next time)")
    ap.add_argument("--name", default="db-scale")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    ap.add_argument("--explain", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.repeat, args.explain)))
        return 0

    url = c.sqlalchemy_url(args.db)
    before = c.machine()
    LOG(f"# {before['uptime']}", flush=True)
    reuse = False
    try:
        with psycopg.connect(c.libpq_url(args.db)) as conn:
            row = conn.execute("SELECT count(*) FROM submissions").fetchone()
            reuse = bool(row and row[0] == args.submissions)
    except psycopg.Error:
        pass
    seconds = 0.0
    if reuse:
        LOG(f"reusing {args.db} ({args.submissions} submissions)")
        alembic_downgrade(url, before_index_revision())
    else:
        c.create_db(args.db)
        alembic_upgrade(url, before_index_revision())
        seconds = seed(c.libpq_url(args.db), args.users, args.submissions)
    with psycopg.connect(c.libpq_url(args.db)) as conn:
        size = conn.execute("SELECT pg_size_pretty(pg_total_relation_size('submissions'))")
        table_size = size.fetchone()
    results: dict[str, dict[str, Any]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="kgrade-bench-db-"))
    try:
        c.export_rev(args.baseline, tmp / "baseline")
        LOG(f"baseline code ({args.baseline}), schema before the index migration", flush=True)
        results["baseline"] = run_measure(tmp / "baseline", url, args.repeat, True)
        LOG("current code, schema before the index migration", flush=True)
        results["code"] = run_measure(c.ROOT, url, args.repeat, False)
        alembic_upgrade(url, "head")
        with psycopg.connect(c.libpq_url(args.db), autocommit=True) as conn:
            conn.execute("ANALYZE submissions")
        LOG("current code, schema at head (indexes)", flush=True)
        results["indexed"] = run_measure(c.ROOT, url, args.repeat, True)
    finally:
        subprocess.run(["rm", "-rf", str(tmp)], check=False)
        if not args.keep:
            c.drop_db(args.db)
    after = c.uptime()
    summary = [
        f"Database at scale: {args.users} users, {args.submissions} submissions "
        f"(submissions table {table_size[0] if table_size else '?'}), PostgreSQL 15, "
        f"{args.repeat} calls a path, a fresh session each",
        f"before: {before['uptime']}",
        f"after:  {after}",
        f"machine: {before['cores']} cores, {before['cpu']}, git {before['git']}, "
        f"baseline {args.baseline}" + (f", seeded in {seconds:.0f} s" if seconds else ""),
        "",
        "baseline = code before, schema before; code = current code, schema before; "
        "indexed = current code at head",
        "",
        *table(results),
        "",
        "## Plans, before (baseline code, schema before the index migration)",
        *plans(results["baseline"]),
        "",
        "## Plans, after (current code, schema at head)",
        *plans(results["indexed"]),
    ]
    LOG("\n".join(summary[:20]))
    c.write(
        args.name,
        {"machine": before, "uptime_after": after, "args": vars(args), "results": results},
        "\n".join(summary),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A burst of submissions through the HTTP API, graded to the end by the real stack.

N submissions of the vector-add reference (each with a unique marker) from U students at once
(each student posts its share back to back, all students concurrently) against uvicorn, with
PostgreSQL (a database of its own on the machine's server, dropped afterwards), a redis-server
of its own (append-only, as in docker-compose.yml) and W Celery precheck workers started with
kgrade's command line (the first one runs beat, the reconciler). Then it waits for the queue to
drain and checks every accepted submission: graded once, none lost, none stored twice.

    .venv/bin/python benchmarks/load_burst.py [-n 1000] [-u 100] [-w 2]

Prints a table and writes benchmarks/results/<date>-cpu-load-burst.json.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402

from app.core.security import hash_token  # noqa: E402
from benchmarks._common import DATE, RESULTS, pct  # noqa: E402
from tests.faults.stack import PrivateRedis, Workers, free_port, wait_for  # noqa: E402

PG_ADMIN = os.environ.get("KGRADE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
CHECKPOINT = "c3a-vector-add"
SOURCE = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()


async def _post_all(url: str, tokens: list[str], n: int) -> list[dict[str, Any]]:
    """Each student posts its share back to back; all students at once."""
    shares = [n // len(tokens) + (1 if i < n % len(tokens) else 0) for i in range(len(tokens))]
    out: list[dict[str, Any]] = []
    limits = httpx.Limits(max_connections=len(tokens))
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:

        async def student(token: str, k: int) -> None:
            for _ in range(k):
                marker = uuid.uuid4().hex
                t0 = time.monotonic()
                rec: dict[str, Any] = {"marker": marker, "t0": t0}
                try:
                    r = await client.post(
                        "/api/submissions",
                        headers={"Authorization": f"Bearer {token}"},
                        json={"checkpoint": CHECKPOINT, "source": f"{SOURCE}\n# marker {marker}\n"},
                    )
                    rec["status"] = r.status_code
                    if r.status_code == 201:
                        rec["id"] = int(r.json()["id"])
                except httpx.HTTPError as exc:
                    rec["status"] = type(exc).__name__
                rec["latency"] = time.monotonic() - t0
                out.append(rec)

        await asyncio.gather(*(student(t, k) for t, k in zip(tokens, shares, strict=True)))
    return out


def _rows(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(
            "SELECT id, status, verdict, attempts, created_at, finished_at, "
            "substring(source from '# marker ([0-9a-f]+)'), "
            "CASE WHEN verdict <> 'correct' THEN result END FROM submissions"
        ).fetchall()


def run_burst(
    n: int,
    users: int,
    workers: int = 2,
    timeout: float = 3600,
    echo: Any = print,
    drain: bool = True,
) -> dict[str, Any]:
    """The whole run; with drain=False (and workers=0) only the admission is measured."""
    tmp = Path(tempfile.mkdtemp(prefix="kgrade-load-"))
    db = f"kgrade_load_{uuid.uuid4().hex[:10]}"
    base = PG_ADMIN.rsplit("/", 1)[0]
    dsn = f"{base}/{db}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db}"')
    redis = PrivateRedis(tmp / "redis", appendonly=True)
    env = {
        "KGRADE_DATABASE_URL": dsn.replace("postgresql://", "postgresql+psycopg://"),
        "KGRADE_REDIS_URL": redis.url(),
        "KGRADE_HOME": str(tmp / "home"),
        "KGRADE_SUBMISSIONS_PER_HOUR": str(max(30, -(-n // users))),
    }
    pool = Workers(env, tmp)
    api: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [sys.executable, "-c", "from app.cli.service_cmd import migrate; migrate()"],
            cwd=ROOT,
            env={**os.environ, **env},
            check=True,
        )
        tokens = [secrets.token_urlsafe(32) for _ in range(users)]
        with psycopg.connect(dsn) as conn, conn.cursor() as cur:
            cur.executemany(
                "WITH u AS (INSERT INTO users (name, role, created_at) VALUES (%s, %s, now()) "
                "RETURNING id) INSERT INTO api_tokens (user_id, name, token_hash, created_at) "
                "SELECT id, 'cli', %s, now() FROM u",
                [(f"student{i:04d}", "student", hash_token(t)) for i, t in enumerate(tokens)],
            )
        for i in range(workers):
            pool.start(beat=i == 0)
        port = free_port()
        log = open(tmp / "uvicorn.log", "wb")  # noqa: SIM115 - lives with the server
        api = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        wait_for(
            lambda: len(httpx.get(f"{url}/api/health").json()["workers"]) >= workers,
            120,
            "the API and the workers",
            0.5,
        )
        echo(f"posting {n} submissions from {users} students to {url} ({workers} workers)")
        t0 = time.monotonic()
        posts = asyncio.run(_post_all(url, tokens, n))
        accept_s = max(p["t0"] + p["latency"] for p in posts) - t0
        accepted = {p["id"]: p["marker"] for p in posts if p["status"] == 201}
        echo(f"accepted {len(accepted)} in {accept_s:.1f} s; draining")

        def drained() -> bool:
            done = sum(1 for r in _rows(dsn) if r[1] == "done")
            echo(f"  {time.monotonic() - t0:7.0f} s  {done}/{len(accepted)} graded", end="\r")
            return done >= len(accepted)

        timed_out = False
        try:
            if drain:
                wait_for(drained, timeout, "the queue to drain", 5.0)
        except AssertionError:
            timed_out = True
        drain_wall = time.monotonic() - t0
        echo("")
        if drain:
            time.sleep(5)  # a late duplicate grading would show now
        rows = _rows(dsn)
    finally:
        if api is not None:
            api.send_signal(signal.SIGINT)
            api.wait(timeout=30)
        pool.stop_all()
        redis.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')

    by_marker = Counter(r[6] for r in rows)
    done = [r for r in rows if r[1] == "done"]
    lost = [i for i in accepted if i not in {r[0] for r in (done if drain else rows)}]
    duplicates = sum(k - 1 for k in by_marker.values() if k > 1)
    refused = {p["marker"] for p in posts if p["status"] != 201}
    stored_refused = sum(1 for r in rows if r[6] in refused)
    finished = [r[5] for r in done if r[5] is not None]
    first = min((r[4] for r in rows), default=None)
    drain_s = (max(finished) - first).total_seconds() if finished and first else float("nan")
    redundant = sum(
        f.read_text(errors="replace").count("not claimable") for f in tmp.glob("worker-*.log")
    )
    lat = [p["latency"] * 1000 for p in posts]
    # every submission is the reference: any other verdict is the service's fault, kept with why
    unexpected = [
        {"id": r[0], "verdict": r[2], "messages": (r[7] or {}).get("messages")}  # psycopg: dict
        for r in done
        if r[2] != "correct"
    ]
    short = len(accepted) < len(posts)
    clean = not (lost or duplicates or stored_refused or timed_out or unexpected or short)
    if clean:
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        "logs": None if clean else str(tmp),  # the workers', uvicorn's and redis's logs
        "benchmark": "load-burst",
        "written": dt.datetime.now(dt.UTC).isoformat(),
        "submissions": n,
        "users": users,
        "workers": workers,
        "checkpoint": CHECKPOINT,
        "machine": {"cores": os.cpu_count(), "loadavg": os.getloadavg()},
        "git": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip(),
        "accepted": len(accepted),
        "errors": dict(Counter(str(p["status"]) for p in posts if p["status"] != 201)),
        "lost": len(lost),
        "duplicates": duplicates,
        "stored_though_refused": stored_refused,
        "timed_out": timed_out,
        "verdicts": dict(Counter(str(r[2]) for r in done)),
        "unexpected": unexpected,
        "attempts": dict(Counter(int(r[3]) for r in done)),
        "redundant_messages": redundant,
        "time_to_accept_s": round(accept_s, 2),
        "post_latency_ms": {
            "p50": round(pct(lat, 50), 1),
            "p95": round(pct(lat, 95), 1),
            "max": round(max(lat, default=float("nan")), 1),
        },
        "time_to_drain_s": round(drain_s, 1),
        "drain_wall_s": round(drain_wall, 1),
        "gradings_per_min": round(len(done) / (drain_s / 60), 1) if drain_s > 0 else None,
    }


def table(r: dict[str, Any]) -> str:
    lines = [
        ("submissions / students / workers", f"{r['submissions']} / {r['users']} / {r['workers']}"),
        ("accepted", r["accepted"]),
        ("errors", sum(r["errors"].values()) if r["errors"] else 0),
        ("lost", r["lost"]),
        ("duplicates", r["duplicates"]),
        ("stored though refused", r["stored_though_refused"]),
        ("verdicts", ", ".join(f"{k} {v}" for k, v in r["verdicts"].items())),
        ("attempts", ", ".join(f"{k}: {v}" for k, v in sorted(r["attempts"].items()))),
        ("redundant messages (claim refused)", r["redundant_messages"]),
        ("time to accept all (s)", r["time_to_accept_s"]),
        ("POST latency p50 / p95 / max (ms)", " / ".join(map(str, r["post_latency_ms"].values()))),
        ("time to drain (s, first post to last result)", r["time_to_drain_s"]),
        ("gradings per minute", r["gradings_per_min"]),
    ]
    w = max(len(k) for k, _ in lines)
    return "\n".join(f"{k:<{w}}  {v}" for k, v in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="submissions")
    ap.add_argument("-u", type=int, default=100, help="students posting at once")
    ap.add_argument("-w", type=int, default=2, help="precheck workers")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the drain")
    ap.add_argument("--out", type=Path, help="JSON file (default: results/<date>-cpu-load-burst)")
    a = ap.parse_args()
    result = run_burst(a.n, a.u, a.w, a.timeout)
    print(table(result))
    out = a.out or RESULTS / f"{DATE}-cpu-load-burst.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, default=str) + "\n")
    print(f"written: {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    ok = not (result["errors"] or result["lost"] or result["duplicates"] or result["timed_out"])
    return 0 if ok and not result["stored_though_refused"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

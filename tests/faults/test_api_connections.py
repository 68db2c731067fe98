"""A burst does not make the API open and close database connections (issue 21: throughput fell
from 271/s at 8 clients to 92/s at 64). The pool let each process open 20 connections beyond
its 10 and close each again as soon as it was handed back while 10 others were idle, so under a
burst every request could pay for a new PostgreSQL session (a backend forked, authenticated and
warmed), which profiling at 64 clients found in the requests' path. Now the pool keeps every
connection a request may hold open: after 400 posts from 64 students at once through uvicorn,
PostgreSQL counts no more sessions on the database than the pool's size and this test's own."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from app.core.security import hash_token
from app.db import POOL_SIZE
from tests.faults.stack import PrivateRedis, free_port, wait_for
from tests.service.conftest import PG_ADMIN, new_database

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()
pytestmark = pytest.mark.slow
CLIENTS, POSTS = 64, 400
# A backend reports its session to pg_stat_database at the latest after 10 s idle, or as it exits.
STATS_FLUSH = 11.0


def _sessions(db: str) -> int:
    """Sessions PostgreSQL established to `db` so far (pg_stat_database, PostgreSQL 14+)."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", (db,))
        return int(row.fetchone()[0])  # type: ignore[index]


async def _burst(url: str, tokens: list[str]) -> list[int]:
    clients = [httpx.AsyncClient(base_url=url, timeout=60) for _ in range(CLIENTS)]
    todo = list(range(POSTS))
    codes: list[int] = []

    async def student(client: httpx.AsyncClient) -> None:
        while todo:
            i = todo.pop()
            r = await client.post(
                "/api/submissions",
                json={"checkpoint": "c3a-vector-add", "source": f"{SOURCE}\n# {i}\n"},
                headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"},
            )
            codes.append(r.status_code)

    try:
        await asyncio.gather(*(student(c) for c in clients))
    finally:
        for c in clients:
            await c.aclose()
    return codes


def test_a_burst_reuses_the_pools_connections(tmp_path: Path) -> None:
    redis = PrivateRedis(tmp_path / "redis")
    api: subprocess.Popen[bytes] | None = None
    try:
        with new_database("kgrade_conn") as url:
            db = url.rsplit("/", 1)[1]
            env = {
                **os.environ,
                "KGRADE_DATABASE_URL": url,
                "KGRADE_REDIS_URL": redis.url(),
                "KGRADE_HOME": str(tmp_path / "home"),
                "KGRADE_SUBMISSIONS_PER_HOUR": "1000",
            }
            migrate = "from app.cli.host import migrate; migrate()"
            subprocess.run([sys.executable, "-c", migrate], cwd=ROOT, env=env, check=True)
            tokens = [secrets.token_urlsafe(32) for _ in range(CLIENTS)]
            with psycopg.connect(url.replace("+psycopg", "")) as conn, conn.cursor() as cur:
                cur.executemany(
                    "WITH u AS (INSERT INTO users (name, role, created_at) VALUES (%s, 'student',"
                    " now()) RETURNING id) INSERT INTO api_tokens (user_id, name, token_hash, "
                    "created_at) SELECT id, 'cli', %s, now() FROM u",
                    [(f"s{i:03d}", hash_token(t)) for i, t in enumerate(tokens)],
                )
            port = free_port()
            argv = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
            log = open(tmp_path / "uvicorn.log", "wb")  # noqa: SIM115 - lives with the server
            api = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            base = f"http://127.0.0.1:{port}"
            wait_for(lambda: httpx.get(f"{base}/api/health").status_code == 200, 60, "the API")
            time.sleep(STATS_FLUSH)
            before = _sessions(db)
            codes = asyncio.run(_burst(base, tokens))
            assert codes == [201] * POSTS, sorted(set(codes))
            time.sleep(STATS_FLUSH)
            opened = _sessions(db) - before
            assert opened <= POOL_SIZE, f"{opened} new sessions for {POSTS} posts"
    finally:
        if api is not None:
            api.terminate()
            api.wait(timeout=30)
        redis.stop()

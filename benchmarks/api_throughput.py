"""API throughput: accepted submissions per second and latency of POST /api/submissions.

The API runs as in production: docker-compose's `api` command of the code under test, with
`--workers N` (default: one per core), real PostgreSQL and Redis, default logging; no grading
workers run, so accepted submissions just queue in Redis. A load generator
(httpx, asyncio, one process) posts the reference vector-add from many students:

* closed loop: C clients each posting back to back, for C in --concurrency;
* open loop: a fixed arrival rate (--rates, per second) whatever the latency, latency counted
  from the moment a request was due (so a server that falls behind shows it).

With --baseline REV the same steps also run, interleaved, against the code of git revision REV
(exported with `git archive`, migrated into its own database): before/after ratios from one run.
The hourly quota is raised through KGRADE_SUBMISSIONS_PER_HOUR, not removed.

    .venv/bin/python benchmarks/api_throughput.py [--baseline REV] [--name api-throughput]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import re
import resource
import secrets
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common as c
import httpx
import psycopg
import redis

CHECKPOINT = "c3a-vector-add"
SOURCE = (c.ROOT / "reference_kernels" / "c3a_vector_add" / "reference.py").read_text()


@dataclass
class Variant:
    name: str
    code: Path
    port: int
    db: str
    redis_db: int
    tokens: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def redis_url(self) -> str:
        return f"{c.REDIS_BASE}/{self.redis_db}"


def api_command(code: Path, port: int, workers: int) -> list[str]:
    """docker-compose's api command of the code in `code`, on 127.0.0.1:port with `workers`."""
    compose = (code / "docker-compose.yml").read_text()
    found = re.search(r"(?ms)^  api:\n.*?command: (\[.*?\])\n", compose)
    assert found, "no api service in docker-compose.yml"
    argv: list[str] = json.loads(found.group(1))
    for flag, value in ("--host", "127.0.0.1"), ("--port", str(port)), ("--workers", workers):
        argv[argv.index(flag) + 1] = str(value)
    here = subprocess.run(
        [c.PY, "-c", "import app; print(app.__file__)"], cwd=code, capture_output=True, text=True
    ).stdout
    assert here.startswith(str(code)), f"{code} imports another app: {here}"
    module = {"uvicorn": "uvicorn", "kgrade": "app.cli"}[argv[0]]
    return [c.PY, "-m", module, *argv[1:]]


def setup(v: Variant, users: int, workers: int, tmp: Path) -> None:
    c.create_db(v.db)
    home = tmp / f"home-{v.name}"
    c.migrate(c.sqlalchemy_url(v.db), v.code, home)
    v.tokens = [secrets.token_urlsafe(32) for _ in range(users)]
    with psycopg.connect(c.libpq_url(v.db)) as conn:
        # tokens in users.token_hash before the accounts migration, in api_tokens since
        tokens_apart = conn.execute("SELECT to_regclass('api_tokens')").fetchone()[0] is not None
        columns = "name, role, created_at" + ("" if tokens_apart else ", token_hash")
        with conn.cursor().copy(f"COPY users ({columns}) FROM STDIN") as cp:
            for i, tok in enumerate(v.tokens):
                digest = hashlib.sha256(tok.encode()).hexdigest()
                row = (f"student{i:05d}", "student", "2026-11-29T00:00:00Z")
                cp.write_row(row if tokens_apart else (*row, digest))
        if tokens_apart:
            with conn.cursor().copy(
                "COPY api_tokens (user_id, name, token_hash, created_at) FROM STDIN"
            ) as cp:
                for i, tok in enumerate(v.tokens):
                    digest = hashlib.sha256(tok.encode()).hexdigest()
                    cp.write_row((i + 1, "cli", digest, "2026-11-29T00:00:00Z"))
    redis.Redis.from_url(v.redis_url).flushdb()
    env = {
        **os.environ,
        "KGRADE_DATABASE_URL": c.sqlalchemy_url(v.db),
        "KGRADE_REDIS_URL": v.redis_url,
        "KGRADE_HOME": str(home),
        "KGRADE_SUBMISSIONS_PER_HOUR": "1000000",
    }
    log = open(tmp / f"api-{v.name}.log", "wb")  # noqa: SIM115  (lives with the server)
    v.proc = subprocess.Popen(
        api_command(v.code, v.port, workers),
        cwd=v.code,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    c.wait_for(lambda: httpx.get(f"{v.url}/api/health").status_code == 200, 60, "the API")


def teardown(v: Variant) -> dict[str, int]:
    """Stop the server; check that every accepted submission is a row and a queued message."""
    if v.proc is not None:
        v.proc.send_signal(signal.SIGINT)
        try:
            v.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            v.proc.kill()
    with psycopg.connect(c.libpq_url(v.db)) as conn:
        rows = conn.execute("SELECT count(*) FROM submissions").fetchone()
    queued = redis.Redis.from_url(v.redis_url).llen("precheck")
    redis.Redis.from_url(v.redis_url).flushdb()
    c.drop_db(v.db)
    return {"rows": rows[0] if rows else -1, "queued_messages": int(queued)}


class Load:
    def __init__(self, v: Variant, client: httpx.AsyncClient) -> None:
        self.v, self.client, self.i = v, client, 0
        self.lat: list[float] = []
        self.status: Counter[str] = Counter()

    async def one(self, due: float | None = None, client: httpx.AsyncClient | None = None) -> None:
        tok = self.v.tokens[self.i % len(self.v.tokens)]
        self.i += 1
        t0 = time.perf_counter() if due is None else due
        try:
            r = await (client or self.client).post(
                f"{self.v.url}/api/submissions",
                json={"checkpoint": CHECKPOINT, "source": SOURCE},
                headers={"Authorization": f"Bearer {tok}"},
            )
            self.status[str(r.status_code)] += 1
        except httpx.HTTPError as exc:
            self.status[type(exc).__name__] += 1
        self.lat.append(time.perf_counter() - t0)


# One TLS context for every client (plain HTTP here): httpx builds one per client otherwise,
# loading the CA bundle each time, milliseconds of the load generator's CPU per client.
_TLS = ssl.create_default_context()


def _client() -> httpx.AsyncClient:
    """A student's client: one connection."""
    return httpx.AsyncClient(limits=httpx.Limits(max_connections=1), timeout=30, verify=_TLS)


async def closed(v: Variant, conc: int, seconds: float) -> Load:
    """C students, each with a connection of their own (as browsers and CLIs are): one client
    each, not one pool of C connections, whose bookkeeping costs the load generator CPU that
    grows with C (measured 2026-12-01: 0.9 ms a request at C=8, 4.6 at C=64, on the two cores
    the server runs on)."""
    clients = [_client() for _ in range(conc)]
    load = Load(v, clients[0])
    end = time.perf_counter() + seconds

    async def user(client: httpx.AsyncClient) -> None:
        while time.perf_counter() < end:
            await load.one(client=client)

    try:
        await asyncio.gather(*(user(cl) for cl in clients))
    finally:
        for cl in clients:
            await cl.aclose()
    return load


async def opened(v: Variant, rate: float, seconds: float) -> Load:
    """Arrivals at `rate` whatever the latency; each request on a connection of its own that
    is idle (up to 256 open at once), as with `closed`: not one pool of 256 connections."""
    idle: asyncio.Queue[httpx.AsyncClient] = asyncio.Queue()
    made = [_client() for _ in range(min(256, int(rate)))]  # before the first arrival
    for client in made:
        idle.put_nowait(client)

    async def one(due: float) -> None:
        if idle.empty() and len(made) < 256:
            made.append(_client())
            idle.put_nowait(made[-1])
        client = await idle.get()
        try:
            await load.one(due, client=client)
        finally:
            idle.put_nowait(client)

    load = Load(v, httpx.AsyncClient())  # its own client is not used here
    t0 = time.perf_counter()
    tasks = []
    try:
        for k in range(int(rate * seconds)):
            due = t0 + k / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(due)))
        await asyncio.gather(*tasks)
    finally:
        for client in [*made, load.client]:
            await client.aclose()
    return load


def db_cpu(v: Variant) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend serving this variant's database now."""
    with psycopg.connect(c.libpq_url(v.db)) as conn:
        pids = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (v.db,),
        ).fetchall()
    out: dict[int, float] = {}
    for (pid,) in pids:
        with contextlib.suppress(OSError):  # gone meanwhile
            out[int(pid)] = c.cpu_seconds(int(pid))
    return out


def db_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """The backends' CPU between two samples (a backend that closed meanwhile, a connection
    beyond the pool's size, is not counted: a lower bound)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def step(v: Variant, kind: str, x: float, seconds: float) -> dict[str, Any]:
    server0 = c.tree_cpu(v.proc.pid) if v.proc else 0.0
    db0 = db_cpu(v)
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    coro = closed(v, int(x), seconds) if kind == "closed" else opened(v, x, seconds)
    load = asyncio.run(coro)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    server = (c.tree_cpu(v.proc.pid) if v.proc else 0.0) - server0
    db = db_spent(db0, db_cpu(v))
    client = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    ms = [x * 1000 for x in load.lat]
    accepted = load.status.get("201", 0)
    return {
        "variant": v.name,
        "mode": kind,
        "concurrency" if kind == "closed" else "rate": x,
        "seconds": round(wall, 2),
        "requests": len(ms),
        "status": dict(load.status),
        "accepted_per_s": round(accepted / wall, 1),
        "p50_ms": round(c.pct(ms, 50), 1),
        "p90_ms": round(c.pct(ms, 90), 1),
        "p99_ms": round(c.pct(ms, 99), 1),
        "max_ms": round(max(ms, default=float("nan")), 1),
        "server_cpu_s_per_req": round(server / max(1, len(ms)) * 1000, 2),
        "client_cpu_s_per_req": round(client / max(1, len(ms)) * 1000, 2),
        "db_cpu_s_per_req": round(db / max(1, len(ms)) * 1000, 2),
        "loadavg": c.loadavg(),
    }


def settle(variants: list[Variant], timeout: float = 60.0) -> None:
    """Wait until every server is idle: an overloaded step leaves requests still running (the
    client gave up on them), and they would be billed to the next step."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        before = sum(c.tree_cpu(v.proc.pid) for v in variants if v.proc)
        time.sleep(0.5)
        if sum(c.tree_cpu(v.proc.pid) for v in variants if v.proc) - before < 0.03:
            return


def line(r: dict[str, Any]) -> str:
    x = f"c={r['concurrency']:<4}" if r["mode"] == "closed" else f"rate={r['rate']:<4}"
    ok, nan = r["status"].get("201", 0), float("nan")
    bad = {k: n for k, n in r["status"].items() if k != "201"}
    return (
        f"{r['variant']:<9} {r['mode']:<6} {x:<9} {r['accepted_per_s']:>7.1f}/s "
        f"p50 {r['p50_ms']:>7.1f} p90 {r['p90_ms']:>7.1f} p99 {r['p99_ms']:>7.1f} ms  "
        f"server {r['server_cpu_s_per_req']:>5.2f} client {r['client_cpu_s_per_req']:>5.2f} "
        f"db {r.get('db_cpu_s_per_req', nan):>5.2f} ms CPU/req  "
        f"{ok} ok{' ' + str(bad) if bad else ''}  load {r['loadavg'][0]:.2f}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", help="git revision to compare against, interleaved")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="uvicorn workers")
    ap.add_argument("--users", type=int, default=500)
    ap.add_argument("--concurrency", default="1,8,32,64")
    ap.add_argument("--rates", default="100,200")
    ap.add_argument("--seconds", type=float, default=10.0, help="per step")
    ap.add_argument("--name", default="api-throughput")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="kgrade-bench-api-"))
    tag = f"{os.getpid()}"
    variants = [Variant("current", c.ROOT, 18601, f"kgrade_bench_api_cur_{tag}", 7)]
    if args.baseline:
        c.export_rev(args.baseline, tmp / "baseline")
        variants.insert(
            0, Variant("baseline", tmp / "baseline", 18602, f"kgrade_bench_api_base_{tag}", 8)
        )
    before = c.machine()
    print(f"# {before['uptime']}  ({before['cores']} cores, {before['cpu']})", flush=True)
    results: list[dict[str, Any]] = []
    checks: dict[str, Any] = {}
    try:
        for v in variants:
            setup(v, args.users, args.workers, tmp)
            step(v, "closed", 8, 3.0)  # warm-up: imports, connection pools
        plan = [("closed", float(x)) for x in args.concurrency.split(",")]
        plan += [("open", float(x)) for x in args.rates.split(",")]
        for kind, x in plan:
            for v in variants:
                settle(variants)
                r = step(v, kind, x, args.seconds)
                results.append(r)
                print(line(r), flush=True)
    finally:
        for v in variants:
            checks[v.name] = teardown(v)
        shutil.rmtree(tmp, ignore_errors=True)
    after = c.uptime()
    summary = [
        f"API throughput: POST /api/submissions ({CHECKPOINT} reference), compose api --workers "
        f"{args.workers}, PostgreSQL + Redis, {args.users} students, {args.seconds:.0f} s a step",
        f"command: .venv/bin/python benchmarks/api_throughput.py {' '.join(sys.argv[1:])}",
        f"before: {before['uptime']}",
        f"after:  {after}",
        f"machine: {before['cores']} cores, {before['cpu']}, git {before['git']}"
        + (f", baseline {args.baseline}" if args.baseline else ""),
        "",
        *(line(r) for r in results),
        "",
        f"consistency (rows in the database, messages in the precheck queue): {checks}",
    ]
    text = "\n".join(summary)
    print("\n".join(summary[-2:]))
    c.write(
        args.name,
        {
            "machine": before,
            "uptime_after": after,
            "args": vars(args),
            "steps": results,
            "consistency": checks,
        },
        text,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

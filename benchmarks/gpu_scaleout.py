"""One GPU worker, then two, on one host: the same batch through the real service.

Runs the service on loopback (API under uvicorn, Redis broker, SQLite database in a fresh
KGRADE_HOME), CPU precheck workers, and one GPU worker per GPU pinned with CUDA_VISIBLE_DEVICES.
A warm-up grades each correct source once (calibration, the torch.compile baseline and the
Triton caches are then in KGRADE_HOME for both runs alike); then the batch is submitted with
one GPU worker, then again with two. Writes OUT/scaleout.json and prints a summary.

    python3 benchmarks/gpu_scaleout.py OUT [--correct 8] [--total 40] [--redis redis-server]

Nsight is off (KGRADE_GPU_PROFILE=false) so that both runs fit one device call; the per-stage
cost of Nsight is in the GPU records. `--also-nice0` runs the two-GPU batch once more with the
precheck workers restarted at niceness 0 (what KGRADE_PRECHECK_NICE changes); `--also-threads0`
with torch's threads on every core in each precheck (KGRADE_PRECHECK_THREADS=0); `--also-spare`
with a spare sandboxed child per precheck worker (KGRADE_PRECHECK_SPARE=true). The host's CPU
use (from /proc/stat, once a second) is recorded for each run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "reference_kernels"
PORT = 8011
REDIS_PORT = 6390


def batch(correct: int, total: int) -> list[tuple[str, str, str]]:
    """(label, checkpoint id, source): `correct` correct sources round-robin, then wrong ones."""
    right = [
        ("softmax-ref", "c3a-softmax", KERNELS / "c3a_softmax" / "reference.py"),
        ("rmsnorm-ref", "c3a-rmsnorm", KERNELS / "c3a_rmsnorm" / "reference.py"),
        (
            "lab-pruned",
            "c3a-softmax",
            KERNELS / "c3a_softmax" / "solutions" / "correct" / "lab_a1_pruned.py",
        ),
    ]
    ids = {
        "c3a_softmax": "c3a-softmax",
        "c3a_rmsnorm": "c3a-rmsnorm",
        "c3a_vector_add": "c3a-vector-add",
        "c3a_cross_entropy": "c3a-cross-entropy",
    }
    wrong = [
        (f"wrong:{p.parent.parent.parent.name}/{p.stem}", ids[p.parent.parent.parent.name], p)
        for p in sorted(KERNELS.glob("c3a_*/solutions/wrong/*.py"))
    ]
    out = [right[i % len(right)] for i in range(correct)]
    out += [wrong[i % len(wrong)] for i in range(total - correct)]
    return [(label, cid, path.read_text()) for label, cid, path in out]


class Stack:
    def __init__(self, home: Path, redis: str, out: Path) -> None:
        self.home, self.out = home, out
        self.env = {
            **os.environ,
            "KGRADE_HOME": str(home),
            "KGRADE_REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
            "KGRADE_GPU_MODELS": "h200",
            "KGRADE_GPU_PROFILE": "false",
            "KGRADE_SUBMISSIONS_PER_HOUR": "10000",
        }
        self.procs: list[subprocess.Popen[bytes]] = []
        self.redis = redis

    def spawn(self, name: str, argv: list[str], **env: str) -> subprocess.Popen[bytes]:
        log = open(self.out / f"{name}.log", "ab")  # noqa: SIM115 - lives as long as the process
        proc = subprocess.Popen(
            argv, cwd=ROOT, env={**self.env, **env}, stdout=log, stderr=subprocess.STDOUT
        )
        self.procs.append(proc)
        return proc

    def cli(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def wait_final(client: httpx.Client, owners: dict[int, str], limit: float) -> float:
    """Poll each submission with its owner's token until all are done (or the limit)."""
    start = time.monotonic()
    pending = set(owners)
    while pending and time.monotonic() - start < limit:
        for sid in list(pending):
            auth = {"Authorization": f"Bearer {owners[sid]}"}
            r = client.get(f"/api/submissions/{sid}", headers=auth)
            if r.status_code == 200 and r.json()["status"] == "done":
                pending.discard(sid)
        time.sleep(1.0)
    return time.monotonic() - start


def submit_all(
    client: httpx.Client, tokens: list[str], items: list[tuple[str, str, str]]
) -> list[tuple[int, str, str]]:
    out = []
    for i, (label, cid, source) in enumerate(items):
        tok = tokens[i % len(tokens)]
        r = client.post(
            "/api/submissions",
            json={"checkpoint": cid, "source": source},
            headers={"Authorization": f"Bearer {tok}"},
        )
        r.raise_for_status()
        out.append((r.json()["id"], label, tok))
    return out


def rows(db: Path, ids: list[int]) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    marks = ",".join("?" * len(ids))
    found = con.execute(f"SELECT * FROM submissions WHERE id IN ({marks})", ids).fetchall()
    con.close()
    out = []
    for r in found:
        result = json.loads(r["result"]) if r["result"] else {}
        bench = result.get("benchmark") or {}
        out.append(
            {
                "id": r["id"],
                "status": r["status"],
                "stage": r["stage"],
                "attempts": r["attempts"],
                "verdict": r["verdict"],
                "level": r["level"],
                "speedup": r["speedup"],
                "claimed_by": r["claimed_by"],
                "finished_at": r["finished_at"],
                "gpu_uuid": (result.get("versions") or {}).get("gpu_uuid"),
                "stages": result.get("stages"),
                "geomean": (bench.get("geomean") or {}).get("torch"),
                # an internal error's messages say why (the spare's open question)
                "messages": result.get("messages") if r["verdict"] == "internal_error" else None,
            }
        )
    return out


class CpuSampler:
    """The host's busy fraction of CPU time, once a second, from /proc/stat."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _read() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        idle = fields[3] + fields[4]  # idle + iowait
        return sum(fields[:8]), idle

    def _run(self) -> None:
        last = self._read()
        while not self._stop.wait(1.0):
            now = self._read()
            total, idle = now[0] - last[0], now[1] - last[1]
            self.samples.append(round(1 - idle / total, 3) if total else 0.0)
            last = now

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> dict[str, Any]:
        xs = self.samples or [0.0]
        return {
            "busy_mean": round(sum(xs) / len(xs), 3),
            "busy_max": max(xs),
            "seconds_over_90pct": sum(x > 0.9 for x in xs),
            "busy_per_second": xs,
        }


def run_batch(
    name: str, client: httpx.Client, tokens: list[str], items: list[Any], db: Path, limit: float
) -> dict[str, Any]:
    t0 = time.monotonic()
    with CpuSampler() as cpu:
        sent = submit_all(client, tokens, items)
        ids = [sid for sid, _, _ in sent]
        waited = wait_final(client, {sid: tok for sid, _, tok in sent}, limit)
    wall = time.monotonic() - t0
    found = rows(db, ids)
    labels = {sid: label for sid, label, _ in sent}
    for f in found:
        f["label"] = labels[f["id"]]
    gpu = [f for f in found if f["gpu_uuid"]]
    print(
        f"{name}: {len(ids)} submitted, {sum(f['status'] == 'done' for f in found)} done in "
        f"{wall:.1f} s ({waited:.1f} s waiting); {len(gpu)} graded on a GPU; host CPU busy "
        f"{cpu.summary()['busy_mean']:.0%} on average, over 90 % for "
        f"{cpu.summary()['seconds_over_90pct']} s",
        flush=True,
    )
    return {"name": name, "wall_s": round(wall, 2), "cpu": cpu.summary(), "submissions": found}


def _cpus(text: str) -> list[int]:
    """'0-3,8' -> [0, 1, 2, 3, 8]"""
    out: list[int] = []
    for part in text.strip().split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def core_halves() -> list[str]:
    """This process's CPUs in two taskset lists of whole physical cores (SMT siblings stay
    together, so the two GPU workers never share a core)."""
    groups = set()
    for cpu in sorted(os.sched_getaffinity(0)):
        f = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list")
        groups.add(tuple(_cpus(f.read_text())) if f.exists() else (cpu,))
    ordered = sorted(groups)
    half = len(ordered) // 2
    return [",".join(str(c) for g in part for c in g) for part in (ordered[:half], ordered[half:])]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--correct", type=int, default=8)
    ap.add_argument("--total", type=int, default=40)
    ap.add_argument("--redis", default="redis-server")
    ap.add_argument("--precheck-workers", type=int, default=8)
    ap.add_argument("--limit", type=float, default=300.0, help="seconds per run at most")
    ap.add_argument("--two-only", action="store_true", help="skip the one-GPU run")
    ap.add_argument(
        "--also-nice0", action="store_true", help="then two GPUs again, prechecks at niceness 0"
    )
    ap.add_argument(
        "--also-threads0",
        action="store_true",
        help="then two GPUs again, prechecks with torch's threads on every core",
    )
    ap.add_argument(
        "--also-spare",
        action="store_true",
        help="then two GPUs again, each precheck worker with a spare child (KGRADE_PRECHECK_SPARE)",
    )
    ap.add_argument(
        "--also-pinned",
        action="store_true",
        help="then two GPUs again, each GPU worker on half of the physical cores (taskset)",
    )
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))  # still write what was measured
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path("/tmp/kgrade-scaleout")
    shutil.rmtree(home, ignore_errors=True)  # a fresh service every time
    stack = Stack(home, args.redis, args.out)
    record: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    try:
        stack.spawn(
            "redis",
            [args.redis, "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"],
        )
        time.sleep(1)
        stack.cli("migrate")
        tokens = [
            stack.cli("users", "add", f"student{i}").strip().splitlines()[-1] for i in range(8)
        ]
        stack.spawn(
            "api",
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(PORT)],
        )
        prechecks = [
            stack.spawn(
                f"precheck{i}",
                [sys.executable, "-m", "app.cli", "worker", *(["--beat"] if i == 0 else [])],
            )
            for i in range(args.precheck_workers)
        ]
        record["precheck_nice"] = os.environ.get("KGRADE_PRECHECK_NICE", "10 (default)")
        gpu0 = stack.spawn(
            "gpu0", [sys.executable, "-m", "app.cli", "worker", "--gpu"], CUDA_VISIBLE_DEVICES="0"
        )
        client = httpx.Client(base_url=f"http://127.0.0.1:{PORT}", timeout=30)
        for _ in range(60):
            try:
                if client.get("/api/health").status_code < 500:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        items = batch(args.correct, args.total)
        distinct = list({label: (label, cid, src) for label, cid, src in items[:3]}.values())
        # warm-up on both GPUs: each GPU worker process measures its own calibration once
        gpu1 = stack.spawn(
            "gpu1", [sys.executable, "-m", "app.cli", "worker", "--gpu"], CUDA_VISIBLE_DEVICES="1"
        )
        record["warmup"] = run_batch(
            "warm-up", client, tokens, distinct * 2, home / "kgrade.db", 240
        )
        gpu1.terminate()
        gpu1.wait(timeout=30)
        stack.procs.remove(gpu1)
        if not args.two_only:
            record["one_gpu"] = run_batch(
                "one GPU worker", client, tokens, items, home / "kgrade.db", args.limit
            )
        (args.out / "scaleout.json").write_text(json.dumps(record, indent=1, default=str))
        stack.spawn(
            "gpu1b", [sys.executable, "-m", "app.cli", "worker", "--gpu"], CUDA_VISIBLE_DEVICES="1"
        )
        time.sleep(8)  # the second worker imports torch and connects before the batch lands
        record["two_gpus"] = run_batch(
            "two GPU workers", client, tokens, items, home / "kgrade.db", args.limit
        )
        assert gpu0.poll() is None, "the first GPU worker died"
        if args.also_pinned:
            (args.out / "scaleout.json").write_text(json.dumps(record, indent=1, default=str))
            for p in [q for q in stack.procs if q.args[-1] == "--gpu"]:
                p.terminate()
                p.wait(timeout=30)
                stack.procs.remove(p)
            halves = core_halves()
            record["pinned_cpus"] = halves
            for i, cpus in enumerate(halves):
                stack.spawn(
                    f"gpu{i}-pinned",
                    ["taskset", "-c", cpus, sys.executable, "-m", "app.cli", "worker", "--gpu"],
                    CUDA_VISIBLE_DEVICES=str(i),
                )
            time.sleep(8)
            record["two_gpus_pinned"] = run_batch(
                "two GPU workers, each on half of the physical cores",
                client,
                tokens,
                items,
                home / "kgrade.db",
                args.limit,
            )
        variants = [
            ("two_gpus_nice0", "prechecks at niceness 0", {"KGRADE_PRECHECK_NICE": "0"}),
            ("two_gpus_threads0", "prechecks on every core", {"KGRADE_PRECHECK_THREADS": "0"}),
            ("two_gpus_spare", "prechecks with a spare child", {"KGRADE_PRECHECK_SPARE": "true"}),
        ]
        for key, what, env in variants:
            if not getattr(args, "also_" + key.removeprefix("two_gpus_")):
                continue
            (args.out / "scaleout.json").write_text(json.dumps(record, indent=1, default=str))
            for p in prechecks:
                p.terminate()
                p.wait(timeout=30)
                stack.procs.remove(p)
            prechecks = [
                stack.spawn(
                    f"precheck{i}-{key}",
                    [sys.executable, "-m", "app.cli", "worker", *(["--beat"] if i == 0 else [])],
                    **env,
                )
                for i in range(args.precheck_workers)
            ]
            time.sleep(8)  # the workers import and connect before the batch lands
            record[key] = run_batch(
                f"two GPU workers, {what}", client, tokens, items, home / "kgrade.db", args.limit
            )
    finally:
        (args.out / "scaleout.json").write_text(json.dumps(record, indent=1, default=str))
        stack.stop()


if __name__ == "__main__":
    main()

"""A GPU-queue worker SIGKILLed mid-grading, on PostgreSQL and Redis, with the default lease and
reconciler period (issue 21: it took 15 minutes with the 900 s lease): the grading is run again
by the other GPU worker and has exactly one final result within 90 s of the kill, and nothing of
the killed worker (its pool process, its sandbox) is left running.

The GPU queue is served on the CPU here: the GPU workers have a fake H200 (KGRADE_TEST_GPUS),
which grades the GPU stage with the interpreter; what is under test is the claim, the lease,
the heartbeat and the reconciler, the same whatever the device."""

from __future__ import annotations

import time

import pytest

from app.settings import Settings
from tests.faults.conftest import workers_up
from tests.faults.stack import Workers, wait_for
from tests.procs import alive, descendants

pytestmark = pytest.mark.slow
DEFAULTS = {k: f.default for k, f in Settings.model_fields.items()}
GPU = {"queues": ("gpu.h200",), "KGRADE_TEST_GPUS": "NVIDIA H200"}


def test_a_gpu_worker_killed_mid_grading_is_replaced_within_90_s_with_the_defaults(  # type: ignore[no-untyped-def]
    stack, pg_url, private_redis, reconciler
) -> None:
    s = stack(
        pg_url,
        private_redis(appendonly=True).url(),
        gpu_models="h200",
        lease_seconds=str(DEFAULTS["lease_seconds"]),  # the defaults, not the fixture's 30 s
        reconcile_seconds=str(DEFAULTS["reconcile_seconds"]),
    )
    reconciler(DEFAULTS["reconcile_seconds"])  # as `kgrade beat` would, at the default period
    s.workers.start()  # prechecks
    gpu = [s.workers.start(**GPU) for _ in range(2)]  # type: ignore[arg-type]
    wait_for(workers_up(3), 120, "a precheck worker and two GPU workers")
    users = [s.user() for _ in range(3)]
    sids = [s.submit(u) for u in users]

    def holder() -> tuple[int, int] | None:
        """(submission, index of the GPU worker) of a GPU grading in flight."""
        names = [Workers.name(p) for p in gpu]
        for i, r in s.rows().items():
            if (r["stage"], r["status"]) == ("gpu", "running") and r["claimed_by"] in names:
                return i, names.index(str(r["claimed_by"]))
        return None

    wait_for(holder, 120, "a GPU grading to start", 0.05)
    held = holder()
    assert held is not None
    sid, k = held
    victim, survivor = gpu[k], gpu[1 - k]
    tree = [victim.pid, *descendants(victim.pid)]  # its pool process and the sandbox
    assert len(tree) >= 2, tree
    Workers.kill(victim)  # SIGKILL to the worker, its pool and its sandbox, mid-grading
    killed = time.monotonic()
    wait_for(lambda: not any(alive(p) for p in tree), 10, "the killed worker's processes to go")

    wait_for(
        lambda: s.row(sid)["status"] == "done",
        90,
        "the killed grading to end within 90 s of the kill",
        0.5,
    )
    took = time.monotonic() - killed
    print(f"graded again {took:.1f} s after the kill")
    rows = s.settle(max(10.0, 120 - took))  # every one once, none lost, none twice
    assert set(rows) == set(sids)
    assert rows[sid]["attempts"] == 2, "the killed grading was not run again"
    assert rows[sid]["claimed_by"] == Workers.name(survivor)
    assert survivor.poll() is None
    assert [p for p in tree if alive(p)] == [], "the killed worker left processes"
    got = s.client.get(f"/api/submissions/{sid}", headers=users[sids.index(sid)]).json()
    assert (got["status"], got["result"]["verdict"]) == ("done", "correct")

"""`kgrade worker` and `kgrade beat` as an operator runs them: which GPUs, which pins, what a
worker checks at its start, the reconciler alone. (Their supervision: tests/faults.)"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from app.cli.workers import Gpu, pin_for, select
from tests.app.test_cli import kgrade, one_line_error
from tests.service.conftest import PG_ADMIN

ROOT = Path(__file__).resolve().parents[2]
TWO = {"KGRADE_TEST_GPUS": "NVIDIA H200,NVIDIA GeForce RTX 5090"}


def test_a_gpu_is_pinned_by_its_uuid_else_by_what_the_parent_sees() -> None:
    assert pin_for(1, "58c3e1f2-0000-4a4b-9c9d-000000000001", None) == (
        "GPU-58c3e1f2-0000-4a4b-9c9d-000000000001"
    )
    assert pin_for(0, "GPU-abc", "3,5") == "GPU-abc"
    # no UUID: the parent's own CUDA_VISIBLE_DEVICES entry, whose index 1 is physical GPU 5
    assert pin_for(1, "", "3, 5") == "5"
    assert pin_for(1, "", None) == "1"


def test_gpus_are_chosen_all_or_by_index() -> None:
    gpus = [Gpu(0, "NVIDIA H200", "GPU-a"), Gpu(1, "NVIDIA GeForce RTX 5090", "GPU-b")]
    assert select(gpus, "all") == gpus
    assert select(gpus, "1") == [gpus[1]]
    assert select(gpus, "1,0,1") == [gpus[1], gpus[0]]
    assert [g.queue for g in gpus] == ["gpu.h200", "gpu.rtx5090"]


def test_gpu_all_without_a_gpu_says_so() -> None:
    line = one_line_error(kgrade("worker", "--gpu", "all", env={"KGRADE_TEST_GPUS": ""}))
    assert line == "kgrade: --gpu: no CUDA GPU is visible to this process"


@pytest.mark.parametrize(
    ("which", "said"),
    [
        ("5", "--gpu 5: 2 GPU(s) visible, no index 5"),
        ("zero", "--gpu zero: give `all` or GPU indices such as 0,2"),
    ],
)
def test_a_wrong_gpu_choice_is_one_line(which: str, said: str) -> None:
    assert one_line_error(kgrade("worker", "--gpu", which, env=TWO)) == f"kgrade: {said}"


def test_the_reconciler_is_not_started_once_per_gpu() -> None:
    line = one_line_error(kgrade("worker", "--gpu", "all", "--beat", env=TWO))
    assert "`kgrade beat`" in line


def test_a_worker_does_not_migrate_postgresql_and_refuses_an_old_schema(tmp_path: Path) -> None:
    """Migrations are a step of their own in a deployment (compose's `migrate`), run once
    before the workers start, not by each worker as it starts."""
    name = f"kgrade_test_empty_{tmp_path.name[-8:].lower()}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://") + "/" + name
    try:
        env = {"KGRADE_DATABASE_URL": url, "KGRADE_HOME": str(tmp_path)}
        line = one_line_error(kgrade("worker", env=env))
        assert "not at the latest schema" in line and "run `kgrade migrate` first" in line
        with psycopg.connect(PG_ADMIN.rsplit("/", 1)[0] + "/" + name) as conn:
            tables = conn.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            ).fetchone()
        assert tables == (0,)  # it migrated nothing
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_beat_alone_sends_the_reconciler_to_its_own_queue(tmp_path: Path) -> None:
    """`kgrade beat`: the schedule alone, every KGRADE_RECONCILE_SECONDS, to the `reconcile`
    queue that precheck workers serve beside `precheck` (here on the embedded broker, whose
    messages sit in a table of broker.db)."""
    env = {"KGRADE_HOME": str(tmp_path), "KGRADE_RECONCILE_SECONDS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "beat"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")} | env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )

    def sent() -> list[str]:
        try:
            with sqlite3.connect(tmp_path / "broker.db", timeout=10) as db:
                return [
                    str(name)
                    for (name,) in db.execute(
                        "SELECT q.name FROM kombu_message m JOIN kombu_queue q ON m.queue_id = q.id"
                    )
                ]
        except sqlite3.Error:  # not created yet
            return []

    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and len(sent()) < 2:
            time.sleep(0.5)
        assert len(sent()) >= 2 and set(sent()) == {"reconcile"}, sent()
    finally:
        proc.terminate()
        proc.wait(timeout=30)

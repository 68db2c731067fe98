"""Skipped tests, impossible to miss: a block at the end of the summary lists every skip, one
line per file and reason (the GPU tests, expected to skip without a GPU, as one line each), and
with KGRADE_REQUIRE_BROWSER=1 (set by .ci/run) a skipped browser test fails the run.
Hooks, registered by tests/conftest.py."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

BROWSER_DIRS = ("tests/web/",)


def _reason(report: Any) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _is_browser(report: Any) -> bool:
    if "gpu" in report.keywords:
        return False
    return report.nodeid.startswith(BROWSER_DIRS) or "chromium" in _reason(report).lower()


def _skipped(stats: dict[str, list[Any]]) -> list[Any]:
    return [r for r in stats.get("skipped", []) if getattr(r, "nodeid", None)]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    skipped = _skipped(terminalreporter.stats)
    if not skipped:
        return
    groups: Counter[tuple[str, str, bool]] = Counter()
    for r in skipped:
        where = r.nodeid.split("::")[0]
        groups[(where, _reason(r), "gpu" in r.keywords)] += 1
    tw = terminalreporter
    tw.write_sep("=", f"{len(skipped)} TESTS SKIPPED: they did not run", yellow=True, bold=True)
    for (where, reason, gpu), n in sorted(groups.items()):
        expected = "  (expected on a machine without a CUDA GPU)" if gpu else ""
        tw.write_line(f"{n:5d}  {where}: {reason}{expected}", yellow=not gpu)
    browser = [r for r in skipped if _is_browser(r)]
    if browser and os.environ.get("KGRADE_REQUIRE_BROWSER") == "1":
        tw.write_line(
            f"KGRADE_REQUIRE_BROWSER=1: {len(browser)} browser test(s) skipped; this run fails",
            red=True,
            bold=True,
        )


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("KGRADE_REQUIRE_BROWSER") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    if any(_is_browser(r) for r in _skipped(reporter.stats)):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

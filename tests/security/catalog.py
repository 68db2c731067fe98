"""The hostile-submission catalog: tests/security/exploits/ plus the test fixtures that are
exploits too (each file names the verdict it must get on its first line)."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "submissions"
EXPECT = re.compile(r"^# expect: ([\w|]+)", re.MULTILINE)


def exploits() -> list[Path]:
    shared = [p for p in sorted(FIXTURES.rglob("*.py")) if EXPECT.search(p.read_text())]
    return sorted((HERE / "exploits").glob("*.py")) + shared


def expected(path: Path) -> list[str]:
    m = EXPECT.search(path.read_text())
    assert m, f"{path.name} names no verdict"
    return m.group(1).split("|")


def what(path: Path) -> str:
    """The comment line that says what the exploit tries."""
    lines = [ln for ln in path.read_text().splitlines() if ln.startswith("# ")]
    return next((ln[2:] for ln in lines if not ln.startswith("# expect:")), "")

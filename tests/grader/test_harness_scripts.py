"""The harness's scripts (run as `python child.py …` in the sandbox) define everything before
their `if __name__ == "__main__":` block: the block runs main() and exits, so a function defined
after it does not exist when main() calls it. This once left the GPU stage's timed rounds
calling an undefined `_forgetting` (the CPU tests import child.py as a module, where it is
defined; only a GPU grading runs it as a script)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "harness"
SCRIPTS = sorted(p for p in HARNESS.glob("*.py") if "__main__" in p.read_text())


def _is_main_block(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.If)
        and isinstance(stmt.test, ast.Compare)
        and isinstance(stmt.test.left, ast.Name)
        and stmt.test.left.id == "__name__"
    )


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_nothing_is_defined_after_the_main_block(script: Path) -> None:
    body = ast.parse(script.read_text()).body
    at = next(i for i, stmt in enumerate(body) if _is_main_block(stmt))
    assert at == len(body) - 1, [getattr(s, "name", type(s).__name__) for s in body[at + 1 :]]


def test_the_scripts_are_found() -> None:
    assert "child.py" in {p.name for p in SCRIPTS}

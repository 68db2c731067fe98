"""Steps, not sagas: no function in grader/, app/ or worker/ is longer than 80 lines (from its
`def` to its last line, docstring and comments included; a nested function counts on its own
and within its parent). A long one is split into named steps with typed results."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
PACKAGES = ("grader", "app", "worker")


def _lengths() -> dict[str, int]:
    out: dict[str, int] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    assert node.end_lineno is not None
                    key = f"{path.relative_to(ROOT)}:{node.name}"
                    length = node.end_lineno - node.lineno + 1
                    out[key] = max(out.get(key, 0), length)
    return out


def test_the_walk_sees_every_package() -> None:
    lengths = _lengths()
    for pkg in PACKAGES:
        assert any(k.startswith(f"{pkg}/") for k in lengths), pkg
    assert "grader/pipeline.py:grade" in lengths


def test_no_function_is_longer_than_80_lines() -> None:
    lengths = _lengths()
    over = {k: n for k, n in lengths.items() if n > LIMIT}
    assert not over, f"functions over {LIMIT} lines (split them into named steps): {over}"

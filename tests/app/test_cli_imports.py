"""`app/cli` imports one way (issue 31): the server's client, this host's service and accounts,
and local grading each sit below the commands that use them, so no module of `app/cli` reaches
itself again through its imports, at the top of a file or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "app" / "cli"


def imports_of(path: Path) -> set[str]:
    """The `app.cli` modules a file imports, wherever in it (lazy imports included)."""
    names = {p.stem for p in CLI.glob("*.py")} - {"__init__", "__main__"}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            parts = node.module.split(".") if node.module else []
            if node.level == 1:  # from .x import y, from . import x
                parts = ["app", "cli", *parts]
            if parts[:2] != ["app", "cli"]:
                continue
            if len(parts) > 2:
                found.add(parts[2])
            else:  # from app.cli import course_cmd, …
                found |= {a.name for a in node.names if a.name in names}
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[:2] == ["app", "cli"] and len(parts) > 2:
                    found.add(parts[2])
    return found & names


def graph() -> dict[str, set[str]]:
    return {
        p.stem: imports_of(p) - {p.stem}
        for p in sorted(CLI.glob("*.py"))
        if p.stem not in ("__init__", "__main__")  # the entry point imports every command
    }


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    g = graph()
    assert g, "no module of app/cli was read"
    assert "supervise" in g["workers"]  # imported inside a function there
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from . import server\nfrom .common import UsageError\n"
        "def f():\n    from app.cli import host, course_cmd\n    import app.cli.workers\n"
    )
    assert imports_of(probe) == {"server", "common", "host", "course_cmd", "workers"}


def test_app_cli_imports_one_way() -> None:
    found = cycles(graph())
    assert found == [], "app/cli imports in circles: " + "; ".join(" ↔ ".join(c) for c in found)

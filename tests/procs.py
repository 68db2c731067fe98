"""Processes below a process, from /proc (the tests that look at what a worker or a grading
started)."""

from __future__ import annotations

from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children first; those gone meanwhile are skipped."""
    out: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:  # gone meanwhile
        return out
    for task in tasks:
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            out += [int(kid), *descendants(int(kid))]
    return out


def harness_pids(pids: list[int]) -> list[int]:
    """Those of `pids` that are sandboxed children: Python running the grader's harness
    (bubblewrap's own command line names child.py too, and is left out)."""
    out = []
    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile
            continue
        if Path(argv[0].decode()).name.startswith("python") and any(
            a.endswith(b"child.py") for a in argv
        ):
            out.append(pid)
    return out

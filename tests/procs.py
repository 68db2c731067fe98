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

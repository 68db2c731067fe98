"""How a deployment shapes its checkpoints beyond their files (issue 31): which built-ins it has
closed and the order of the home page and the lists. Kept in KGRADE_HOME/course.toml, beside
the added checkpoints (home/checkpoints), written whole by a rename:

    order = ["c3a-vector-add", "c3a-softmax"]   # first, in this order; the rest after, as before
    closed = ["c3a-attention"]                  # built-ins closed here

An added checkpoint's open flag stays in its own checkpoint.toml (`service.set_open`)."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any

from grader import checkpoints

FILE = "course.toml"


def read(home: Path) -> dict[str, list[str]]:
    """The course file's lists (empty when there is none, or it does not parse)."""
    try:
        data: dict[str, Any] = tomllib.loads((home / FILE).read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {"order": [], "closed": []}
    return {k: [str(v) for v in data.get(k, []) if isinstance(v, str)] for k in ("order", "closed")}


def write(home: Path, course: dict[str, list[str]]) -> None:
    home.mkdir(parents=True, exist_ok=True)
    lines = [
        f"{k} = [{', '.join(_quoted(v) for v in course.get(k, []))}]" for k in ("order", "closed")
    ]
    tmp = home / f".{FILE}.{os.getpid()}"
    tmp.write_text(
        "# written by kgrade (checkpoints order / open / close)\n" + "\n".join(lines) + "\n"
    )
    tmp.replace(home / FILE)


def _quoted(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shaped(
    course: dict[str, list[str]], cp: checkpoints.Checkpoint, builtin: bool
) -> checkpoints.Checkpoint:
    """The checkpoint as this deployment has it: a built-in it closed, closed."""
    if builtin and cp.id in course["closed"] and cp.definition.open:
        return dataclasses.replace(cp, definition=cp.definition.model_copy(update={"open": False}))
    return cp


def ordered(
    course: dict[str, list[str]], cps: list[checkpoints.Checkpoint]
) -> list[checkpoints.Checkpoint]:
    """The course's order first, then the others in the order they came."""
    rank = {cid: i for i, cid in enumerate(course["order"])}
    return sorted(cps, key=lambda c: rank.get(c.id, len(rank)))

"""Checkpoints as the API reads them on every submission: loaded once, reloaded on change.

`grader.checkpoints.get` parses every checkpoint.toml and imports the checkpoint's problem.py
on each call (about 4 ms of CPU, 8 ms of wall time); admission asks on every POST. Here each
folder is remembered with the modification times of its checkpoint.toml and problem.py, so a
folder added under KGRADE_HOME/checkpoints, a checkpoint opened or closed (`set_open` rewrites
its checkpoint.toml) or an edited problem.py is seen on the next call; an unchanged one costs
two stat calls. Anything unusual (an unknown id, a file that does not parse) goes to
`grader.checkpoints.get`, so errors read exactly as before.
"""

from __future__ import annotations

import threading
import tomllib
from pathlib import Path

from grader import checkpoints

Stamp = tuple[int, int]

_lock = threading.Lock()
_ids: dict[Path, tuple[Stamp, str]] = {}
_loaded: dict[Path, tuple[Stamp, checkpoints.Checkpoint]] = {}


def _stamp(folder: Path) -> Stamp:
    problem = folder / "problem.py"
    return (
        (folder / "checkpoint.toml").stat().st_mtime_ns,
        problem.stat().st_mtime_ns if problem.exists() else -1,
    )


def _id(folder: Path, stamp: Stamp) -> str:
    known = _ids.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    cid = str(tomllib.loads((folder / "checkpoint.toml").read_text()).get("id", ""))
    with _lock:
        _ids[folder] = (stamp, cid)
    return cid


def get(checkpoint_id: str, extra_dirs: list[Path] | None = None) -> checkpoints.Checkpoint:
    """What `grader.checkpoints.get` returns, without re-importing an unchanged checkpoint."""
    try:
        for folder in checkpoints.folders(extra_dirs):
            stamp = _stamp(folder)
            if _id(folder, stamp) != checkpoint_id:
                continue
            cached = _loaded.get(folder)
            if cached is not None and cached[0] == stamp:
                return cached[1]
            checkpoint = checkpoints.load(folder)
            with _lock:
                _loaded[folder] = (stamp, checkpoint)
            return checkpoint
    except (OSError, tomllib.TOMLDecodeError):
        pass  # a folder changing under us, or a broken file: the uncached path says what
    return checkpoints.get(checkpoint_id, extra_dirs)

"""Checkpoints as the service reads them (admission on every POST, the pages, the workers, the
CLI): loaded once, reloaded on change.

`grader.checkpoints.get` parses every checkpoint.toml and the checkpoint's problem.py (as data:
it is never imported here; it runs only in its sandbox, grader/sandbox/problem.py) on each
call (docs/PERFORMANCE.md, section 1). Here each folder is remembered with the
modification times and inodes of its checkpoint.toml and problem.py, so a folder added under
KGRADE_HOME/checkpoints, a checkpoint opened or closed (`set_open` rewrites its
checkpoint.toml), a reinstalled one or an edited problem.py is seen on the next call; an
unchanged one costs two stat calls. Anything unusual (an unknown id, a file that does not
parse) goes to `grader.checkpoints.get`, so errors read exactly as before.

Only a folder that is not installed (a validation's staging copy, the CLI's FOLDER argument)
is loaded with `grader.checkpoints.load` directly.
"""

from __future__ import annotations

import threading
import tomllib
from pathlib import Path

from grader import checkpoints

Stamp = tuple[int, int, int, int]

_lock = threading.Lock()
_ids: dict[Path, tuple[Stamp, str]] = {}
_loaded: dict[Path, tuple[Stamp, checkpoints.Checkpoint]] = {}


def _stamp(folder: Path) -> Stamp:
    toml = (folder / "checkpoint.toml").stat()
    problem = folder / "problem.py"
    p = problem.stat() if problem.exists() else None
    return (toml.st_mtime_ns, toml.st_ino, p.st_mtime_ns if p else -1, p.st_ino if p else -1)


def _id(folder: Path, stamp: Stamp) -> str:
    known = _ids.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    cid = str(tomllib.loads((folder / "checkpoint.toml").read_text()).get("id", ""))
    with _lock:
        _ids[folder] = (stamp, cid)
    return cid


def _load(folder: Path, stamp: Stamp) -> checkpoints.Checkpoint:
    cached = _loaded.get(folder)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    checkpoint = checkpoints.load(folder)
    with _lock:
        _loaded[folder] = (stamp, checkpoint)
    return checkpoint


def get(checkpoint_id: str, extra_dirs: list[Path] | None = None) -> checkpoints.Checkpoint:
    """What `grader.checkpoints.get` returns, without re-reading an unchanged checkpoint."""
    try:
        for folder in checkpoints.folders(extra_dirs):
            stamp = _stamp(folder)
            if _id(folder, stamp) == checkpoint_id:
                return _load(folder, stamp)
    except (OSError, tomllib.TOMLDecodeError):
        pass  # a folder changing under us, or a broken file: the uncached path says what
    return checkpoints.get(checkpoint_id, extra_dirs)


def listed(extra_dirs: list[Path] | None = None) -> list[checkpoints.Checkpoint]:
    """Every checkpoint: the built-ins, then those in `extra_dirs` (a folder that does not load
    raises, as `grader.checkpoints.load` does)."""
    return [_load(folder, _stamp(folder)) for folder in checkpoints.folders(extra_dirs)]


def builtin_ids() -> set[str]:
    return {_load(f, _stamp(f)).id for f in checkpoints.builtin_folders()}


def is_builtin(checkpoint: checkpoints.Checkpoint) -> bool:
    return checkpoint.folder.parent == checkpoints.BUILTIN_DIR

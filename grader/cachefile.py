"""Small JSON files of measurements kept in the worker's cache folder (KGRADE_HOME), keyed by
GPU and versions. Several workers of one host share them: writes replace the file whole."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any


def load(path: Path | None) -> dict[str, Any]:
    """The file's entries; none when there is no file or it does not parse."""
    if path is None or not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def store(path: Path | None, entries: dict[str, Any]) -> None:
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # a name of its own per store: threads of one process (a side-by-side validation) store too
    tmp = path.with_suffix(f".{os.getpid()}.{secrets.token_hex(6)}.tmp")
    tmp.write_text(json.dumps(entries, indent=1))
    tmp.replace(path)

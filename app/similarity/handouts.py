"""Base text an instructor registers for a checkpoint's similarity report (issue 31): the
course's handouts (a lab file, a tutorial's kernel), subtracted from every submission before
fingerprinting like the starter, so that students who all started from the handout are not
paired by it. Kept as files in KGRADE_HOME/handouts/<checkpoint>/NAME (beside the added
checkpoints, written whole by a rename)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from app.core.errors import Invalid, NotFound
from app.core.limits import MAX_SOURCE_BYTES

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_HANDOUTS = 32


def folder(home: Path, checkpoint: str) -> Path:
    return home / "handouts" / checkpoint


def listed(home: Path, checkpoint: str) -> dict[str, str]:
    """Each handout's name and text, by name."""
    d = folder(home, checkpoint)
    out = {}
    for p in sorted(d.glob("*")) if d.is_dir() else []:
        if p.is_file() and NAME.match(p.name):
            try:
                out[p.name] = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    return out


def put(home: Path, checkpoint: str, name: str, text: str) -> None:
    if not NAME.match(name) or ".." in name:
        raise Invalid(f"a handout's name is letters, digits, '_', '-' and '.', not {name!r}")
    if len(text.encode()) > MAX_SOURCE_BYTES:
        raise Invalid(f"a handout is at most {MAX_SOURCE_BYTES // 1024} KiB")
    d = folder(home, checkpoint)
    if name not in listed(home, checkpoint) and len(listed(home, checkpoint)) >= MAX_HANDOUTS:
        raise Invalid(f"a checkpoint has at most {MAX_HANDOUTS} handouts")
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{name}.{os.getpid()}"
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(d / name)


def remove(home: Path, checkpoint: str, name: str) -> None:
    path = folder(home, checkpoint) / name
    if not NAME.match(name) or not path.is_file():
        raise NotFound(f"no handout {name!r} for {checkpoint}")
    path.unlink()

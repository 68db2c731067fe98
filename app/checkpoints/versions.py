"""A checkpoint's version: the content hash of its files, so a result says which definition
graded it, and re-posting an id with other files is a new version (the same files: none).

The hash is SHA-256 over the folder's files (path and text, in path order; `__pycache__` and
compiled files left out), with what of checkpoint.toml an instructor changes on a
running course (`open = …`, the `[deadline]` table) left out: opening or closing a checkpoint
or moving its deadline does not change what grades. Each version that grades a result, or is
installed, keeps its files in `checkpoint_versions`, so an earlier version stays readable
after the checkpoint changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.models import CheckpointVersion

# What in checkpoint.toml says how a course runs, not how it grades: top-level keys, tables.
COURSE_KEYS = ("open",)
COURSE_TABLES = ("deadline",)
_COURSE_LINE = re.compile(rf"^(?:{'|'.join(COURSE_KEYS)})\s*=")
SHORT = 12  # the hex digits shown to people


def folder_files(folder: Path) -> dict[str, str]:
    """A checkpoint folder's files, path (relative, with /) → text."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or "__pycache__" in rel.parts or path.suffix == ".pyc":
            continue
        out[rel.as_posix()] = path.read_text(errors="replace")
    return out


def content_hash(files: dict[str, str]) -> str:
    graded = dict(files)
    if "checkpoint.toml" in graded:
        graded["checkpoint.toml"] = graded_toml(graded["checkpoint.toml"])
    blob = json.dumps(sorted(graded.items()), ensure_ascii=False).encode()
    return hashlib.sha256(blob).hexdigest()


def graded_toml(text: str) -> str:
    """checkpoint.toml without what a course changes while it runs (`open = …` at the top
    level, the `[deadline]` table) and blank lines: the part of it that grades."""
    kept, table = [], None
    for line in text.splitlines(keepends=True):
        head = line.strip()
        if head.startswith("["):
            table = head.strip("[]").strip()
        if not head or table in COURSE_TABLES or (table is None and _COURSE_LINE.match(line)):
            continue  # (blank lines too: a table added or removed leaves no trace)
        kept.append(line)
    return "".join(kept)


def of_folder(folder: Path) -> tuple[str, dict[str, str]]:
    files = folder_files(folder)
    return content_hash(files), files


def short(version: str | None) -> str | None:
    return version[:SHORT] if version else None


def keep(session: Session, checkpoint_id: str, version: str, files: dict[str, str]) -> None:
    """Store a version's files once (two workers storing one at the same time: one row)."""
    if _row(session, checkpoint_id, version) is not None:
        return
    try:
        with session.begin_nested():
            session.add(CheckpointVersion(checkpoint=checkpoint_id, version=version, files=files))
    except IntegrityError:
        pass  # stored meanwhile by another transaction


def _row(session: Session, checkpoint_id: str, version: str) -> CheckpointVersion | None:
    return session.scalars(
        select(CheckpointVersion).where(
            CheckpointVersion.checkpoint == checkpoint_id, CheckpointVersion.version == version
        )
    ).first()


def listed(session: Session, checkpoint_id: str) -> list[CheckpointVersion]:
    """The stored versions of a checkpoint, oldest first."""
    return list(
        session.scalars(
            select(CheckpointVersion)
            .where(CheckpointVersion.checkpoint == checkpoint_id)
            .order_by(CheckpointVersion.id)
        ).all()
    )


def find(session: Session, checkpoint_id: str, version: str) -> CheckpointVersion | None:
    """A stored version by its hash or a prefix of it (at least 6 hex digits)."""
    if len(version) < 6:
        return None
    return next(
        (v for v in listed(session, checkpoint_id) if v.version.startswith(version.lower())),
        None,
    )

"""What every command shares: the usage error, and a file of the user's read as text."""

from __future__ import annotations

from pathlib import Path

from app.core.limits import MAX_SOURCE_BYTES


class UsageError(Exception):
    """Printed as one line on stderr; exit status 2."""


def read_source(path: Path) -> str:
    if not path.exists():
        raise UsageError(f"no such file: {path}")
    if not path.is_file():
        raise UsageError(f"not a file: {path}")
    raw = path.read_bytes()
    if len(raw) > MAX_SOURCE_BYTES:
        raise UsageError(f"{path} is {len(raw)} bytes; a submission may be at most 256 KiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text (byte {exc.start})") from exc

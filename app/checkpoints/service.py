"""Admins add checkpoints: written to a staging folder, validated (reference correct, each
known-bad solution rejected as it says, starter not accepted), and only then opened under
KGRADE_HOME/checkpoints. The files are an admin's code: problem.py runs in the trusted parent."""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app import grading
from app.errors import ApiError
from app.settings import Settings
from grader import checkpoints
from grader.validation import validate

_NAME = re.compile(r"^[A-Za-z0-9_]{1,64}\.py$")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,63}$")


def _write(folder: Path, files: dict[str, str], wrong: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "solutions" / "wrong").mkdir(parents=True)
    for name, text in wrong.items():
        if not _NAME.match(name):
            raise ApiError(400, f"bad file name for a wrong solution: {name!r}")
        (folder / "solutions" / "wrong" / name).write_text(text)


def create(
    s: Settings,
    definition: str,
    problem: str,
    reference: str,
    starter: str | None,
    wrong: dict[str, str],
) -> dict[str, Any]:
    try:
        cid = str(tomllib.loads(definition).get("id", ""))
    except tomllib.TOMLDecodeError as exc:
        raise ApiError(400, f"checkpoint.toml: {exc}") from exc
    if not _ID.match(cid):
        raise ApiError(400, "checkpoint.toml needs an id of lower-case letters, digits and dashes")
    builtin = {checkpoints.load(f).id for f in checkpoints.builtin_folders()}
    if cid in builtin:
        raise ApiError(409, f"'{cid}' is a built-in checkpoint")
    staging = Path(tempfile.mkdtemp(prefix="kgrade-checkpoint-"))
    folder = staging / cid.replace("-", "_")
    folder.mkdir()
    try:
        files = {"checkpoint.toml": definition, "problem.py": problem, "reference.py": reference}
        if starter is not None:
            files["starter.py"] = starter
        _write(folder, files, wrong)
        try:
            checkpoint = checkpoints.load(folder)
        except Exception as exc:  # an admin's problem.py may raise anything
            raise ApiError(400, f"the checkpoint does not load: {exc}") from exc
        checks = validate(checkpoint, grading.options(s, "cpu"))
        report = {
            "id": cid,
            "valid": all(c.ok for c in checks),
            "checks": [asdict(c) for c in checks],
        }
        if report["valid"]:
            dest = s.home / "checkpoints" / folder.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(folder, dest)
        return report
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def set_open(s: Settings, checkpoint_id: str, is_open: bool) -> None:
    try:
        checkpoint = checkpoints.get(checkpoint_id, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        raise ApiError(404, str(exc)) from exc
    if checkpoint.folder.parent == checkpoints.BUILTIN_DIR:
        raise ApiError(409, "built-in checkpoints are changed in the repository, not here")
    toml = checkpoint.folder / "checkpoint.toml"
    text = re.sub(r"(?m)^open\s*=.*\n?", "", toml.read_text())
    toml.write_text(f"open = {'true' if is_open else 'false'}\n" + text)

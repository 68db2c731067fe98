"""app.checkpoints.registry: admission's cached checkpoints see every change on the next call."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from app.checkpoints import registry
from grader import checkpoints

VA = Path(__file__).resolve().parents[2] / "reference_kernels" / "c3a_vector_add"


def _copy(dest: Path, cid: str) -> Path:
    folder = dest / cid.replace("-", "_")
    shutil.copytree(VA, folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', f'id = "{cid}"'))
    return folder


def _touch_later(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


def test_the_same_checkpoint_until_a_file_changes(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "lab-add")
    first = registry.get("lab-add", [tmp_path])
    assert first.id == "lab-add" and first.definition.open
    assert registry.get("lab-add", [tmp_path]) is first  # not imported again
    toml = folder / "checkpoint.toml"
    toml.write_text("open = false\n" + toml.read_text())
    _touch_later(toml)
    closed = registry.get("lab-add", [tmp_path])
    assert closed is not first and not closed.definition.open
    _touch_later(folder / "problem.py")
    assert registry.get("lab-add", [tmp_path]) is not closed


def test_a_new_folder_is_found_and_unknown_ids_fail_as_before(tmp_path: Path) -> None:
    assert registry.get("c3a-vector-add", [tmp_path]).folder == VA
    with pytest.raises(checkpoints.CheckpointError, match="unknown checkpoint 'lab-two'"):
        registry.get("lab-two", [tmp_path])
    _copy(tmp_path, "lab-two")
    assert registry.get("lab-two", [tmp_path]).id == "lab-two"
    shutil.rmtree(tmp_path / "lab_two")
    with pytest.raises(checkpoints.CheckpointError, match="unknown checkpoint"):
        registry.get("lab-two", [tmp_path])

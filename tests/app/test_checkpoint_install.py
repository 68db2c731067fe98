"""One install path: the API's validation task and `kgrade checkpoints add FOLDER` install through
`app.checkpoints.service.install`, under the one name derived from the id, so a checkpoint is
never installed twice under two names (the CLI used the folder's name, the API the id's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.checkpoints import registry, service
from app.core.errors import Conflict
from app.settings import Settings
from grader import checkpoints

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"


def _copy(dest: Path, cid: str) -> Path:
    shutil.copytree(VA, dest)
    toml = dest / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', f'id = "{cid}"'))
    return dest


def _installed(home: Path) -> list[str]:
    return sorted(p.parent.name for p in (home / "checkpoints").glob("*/checkpoint.toml"))


def test_installed_once_under_the_id_whatever_the_folder_is_called(tmp_path: Path) -> None:
    s = Settings(home=tmp_path / "home")  # type: ignore[call-arg]
    legacy = _copy(s.home / "checkpoints" / "my_lab", "lab-add")  # as the CLI used to name it
    assert _installed(s.home) == ["my_lab"]
    dest = service.install(s, checkpoints.load(_copy(tmp_path / "upload", "lab-add")))
    assert dest == s.home / "checkpoints" / "lab_add" and not legacy.exists()
    service.install(s, checkpoints.load(_copy(tmp_path / "again", "lab-add")))
    assert _installed(s.home) == ["lab_add"]
    assert registry.get("lab-add", s.all_checkpoint_dirs).folder == dest
    assert not list((s.home / "incoming").iterdir())  # no copy left half-way


def test_a_builtin_id_is_never_installed(tmp_path: Path) -> None:
    s = Settings(home=tmp_path / "home")  # type: ignore[call-arg]
    with pytest.raises(Conflict, match="built-in"):
        service.install(s, checkpoints.load(_copy(tmp_path / "mine", "c3a-softmax")))
    assert not (s.home / "checkpoints" / "c3a_softmax").exists()


@pytest.mark.slow
def test_the_cli_installs_through_the_same_function(tmp_path: Path) -> None:
    home = tmp_path / "home"
    s = Settings(home=home)  # type: ignore[call-arg]
    service.install(s, checkpoints.load(_copy(tmp_path / "upload", "lab-add")))  # as the API
    folder = _copy(tmp_path / "some_other_name", "lab-add")
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "checkpoints", "add", str(folder)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "KGRADE_HOME": str(home)},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"added as {home / 'checkpoints' / 'lab_add'}" in proc.stdout
    assert _installed(home) == ["lab_add"]

"""A compute-bound checkpoint goes in the way an admin's does (issue 23): `kgrade checkpoints
add FOLDER` validates it under the interpreter — reference correct, every known-bad solution
its verdict, the starter not accepted — and only then installs it, with its declared work
(`flops`) and its explained-gap rubric intact."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.app.test_cli import ROOT, kgrade


@pytest.mark.slow
def test_a_copy_of_the_gemm_checkpoint_validates_and_is_added(tmp_path: Path) -> None:
    folder = tmp_path / "gemm_copy"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_gemm_e3", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-gemm-e3"', 'id = "lab-gemm"'))
    env = {"KGRADE_HOME": str(tmp_path / "home")}
    proc = kgrade("checkpoints", "add", str(folder), env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in (
        "reference.py",
        "solutions/wrong/fp16_accumulation.py",
        "solutions/wrong/k_tail_unmasked.py",
    ):
        assert any(line.startswith("ok") and name in line for line in proc.stdout.splitlines()), (
            proc.stdout
        )
    assert "valid; added" in proc.stdout
    installed = tmp_path / "home" / "checkpoints" / "lab_gemm"
    assert "def flops" in (installed / "problem.py").read_text()
    assert 'level3 = "explained_gap"' in (installed / "checkpoint.toml").read_text()
    listed = kgrade("checkpoints", "--local", "--json", env=env)
    assert "lab-gemm" in listed.stdout, listed.stdout + listed.stderr

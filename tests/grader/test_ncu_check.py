"""The GPU worker's Nsight Compute check (grader/gpu/ncu_check.py). Without ncu the real check says
so (this machine: no ncu on PATH); what ncu prints in the other cases is read as below (the
messages as Nsight Compute prints them; the check itself on a GPU: tests/gpu/test_ncu_check.py)."""

from __future__ import annotations

import shutil

import pytest

from grader.gpu import ncu_check


def test_without_ncu_the_check_says_it_is_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no CUDA toolkit there
    if shutil.which("ncu") is not None:
        pytest.skip("ncu is installed in /usr/bin here")
    got = ncu_check.check()
    assert got == ncu_check.NcuCheck(False, "ncu is not installed (no `ncu` on the worker's PATH)")


def test_the_drivers_profiling_restriction_is_named_with_its_fix() -> None:
    said = (
        "==PROF== Connected to process 4242 (/usr/bin/python3.11)\n"
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
        "Performance Counters on the target device 0. For instructions on enabling permissions "
        "and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
        "==PROF== Disconnected from process 4242\n==WARNING== No kernels were profiled.\n"
    )
    got = ncu_check.read(0, said, "2025.1.1.0")
    assert not got.can_profile
    assert "ERR_NVGPUCTRPERM" in got.reason
    assert "NVreg_RestrictProfilingToAdminUsers=0" in got.reason


def test_counters_read_and_other_failures() -> None:
    ok = (
        '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
        '"0","add","gpu__time_duration.sum","nsecond","2144"\n'
    )
    assert ncu_check.read(0, ok, "2025.1.1.0") == ncu_check.NcuCheck(
        True, "ncu 2025.1.1.0 reads the GPU's counters"
    )
    no_gpu = ncu_check.read(3, f"{ncu_check.NO_GPU}\n==WARNING== No kernels were profiled.", "x")
    assert no_gpu == ncu_check.NcuCheck(False, "no CUDA GPU is visible to this worker")
    other = ncu_check.read(1, "==ERROR== Failed to connect to process\n", "2025.1.1.0")
    assert not other.can_profile
    assert other.reason == (
        "ncu 2025.1.1.0 could not profile (exit 1): ==ERROR== Failed to connect to process"
    )


def _run(argv: list[str]) -> str:
    import subprocess

    return subprocess.run(argv, capture_output=True, text=True, check=True, cwd="/").stdout


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_the_check_runs_as_the_sandbox_runs_ncu_nobody_without_capabilities() -> None:
    """So that a worker's own privileges (root, a container's SYS_ADMIN) cannot make it pass
    where the sandboxed replay would fail: the check's command, run for real here (ncu
    replaced by what it would start)."""
    import sys

    prefix = ncu_check.in_sandbox(["true"], gpu=False)[:-1]
    said = _run(
        [*prefix, sys.executable, "-c", "import os, torch; print(os.geteuid(), os.getegid())"]
    )
    assert said.split() == [str(ncu_check.NOBODY)] * 2
    caps = _run([*prefix, "grep", "^Cap", "/proc/self/status"])
    assert {ln.split()[0]: int(ln.split()[1], 16) for ln in caps.splitlines()} == {
        "CapInh:": 0,
        "CapPrm:": 0,
        "CapEff:": 0,
        "CapBnd:": 0,
        "CapAmb:": 0,
    }


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_the_check_runs_from_a_venv_under_a_private_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A checkout (and its venv) under a 0700 folder, as a clone in root's home is: `nobody`
    cannot reach its interpreter outside the sandbox; inside it, bound in as a grading's is,
    it runs (it once ran as nobody outside it: 'cannot profile' on such a host)."""
    import os
    import subprocess
    import sys

    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    venv = private / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    root = os.path.dirname(os.path.dirname(os.path.abspath(ncu_check.__file__)))
    probe = (
        f"import subprocess, sys; sys.path[:0] = [{os.path.dirname(root)!r}, *{sys.path!r}]\n"
        "from grader.gpu import ncu_check\n"
        "argv = ncu_check.in_sandbox([sys.executable, '-c', "
        "'import os, sys; print(os.geteuid(), sys.prefix)'], gpu=False)\n"
        "print(subprocess.run(argv, capture_output=True, text=True).stdout, end='')\n"
    )
    said = _run([str(venv / "bin" / "python"), "-c", probe]).split()
    assert said == [str(ncu_check.NOBODY), str(venv)], said

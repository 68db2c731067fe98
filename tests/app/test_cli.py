"""`kgrade` as a user runs it: a real process, its exit code, stdout and stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "reference_kernels" / "c3a_softmax" / "reference.py"
LAB = ROOT / "reference_kernels" / "c3a_softmax" / "solutions" / "wrong" / "lab_a1_autotune.py"


def kgrade(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_unknown_checkpoint() -> None:
    line = one_line_error(kgrade("grade", str(REFERENCE), "--checkpoint", "nope"))
    assert "unknown checkpoint 'nope'" in line and "c3a-softmax" in line


def test_missing_file() -> None:
    assert "no such file" in one_line_error(kgrade("grade", "nope.py", "-c", "c3a-softmax"))


def test_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "bad.py"
    f.write_bytes(b"x = '\xff\xfe'\n")
    assert "not UTF-8" in one_line_error(kgrade("grade", str(f), "-c", "c3a-softmax"))


def test_too_large(tmp_path: Path) -> None:
    f = tmp_path / "big.py"
    f.write_text("#" * (300 * 1024))
    assert "256 KiB" in one_line_error(kgrade("grade", str(f), "-c", "c3a-softmax"))


def test_json_contract_for_a_correct_file() -> None:
    proc = kgrade("grade", str(REFERENCE), "--checkpoint", "c3a-softmax", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["checkpoint"] == "c3a-softmax"
    assert out["verdict"] == "correct" and out["level"] == 2
    assert out["device"] == "cpu (Triton interpreter)"
    assert out["messages"] and out["cases"]
    assert {"name", "passed", "max_abs_err", "message"} <= set(out["cases"][0])


def test_a_wrong_grade_still_exits_zero_with_a_readable_report() -> None:
    proc = kgrade("grade", str(LAB), "--checkpoint", "c3a-softmax")
    assert proc.returncode == 0, proc.stderr
    assert "verdict: wrong_answer   level: 1" in proc.stdout
    assert "BLOCK_SIZE=256, num_warps=2): wrong for widths" in proc.stdout


def test_refuses_to_grade_without_a_sandbox(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path)}  # no bwrap on this PATH
    line = one_line_error(kgrade("grade", str(REFERENCE), "-c", "c3a-softmax", env=env))
    assert "cannot grade safely" in line and "--unsafe-no-sandbox" in line


def test_unsafe_flag_grades_and_says_so(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path)}
    proc = kgrade("grade", str(REFERENCE), "-c", "c3a-softmax", "--unsafe-no-sandbox", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "verdict: correct" in proc.stdout
    assert "WARNING: sandbox: NONE" in proc.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_checkpoints_lists_the_builtins(fmt: str) -> None:
    proc = kgrade("checkpoints", *(["--json"] if fmt == "json" else []))
    assert proc.returncode == 0
    for cid in ("c3a-softmax", "c3a-vector-add", "c3a-rmsnorm", "c3a-cross-entropy"):
        assert cid in proc.stdout


def test_a_valid_checkpoint_validates_and_can_be_added(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "vector_add_copy"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "c3a-vector-add-copy"'))
    env = {"KGRADE_HOME": str(tmp_path / "home")}
    proc = kgrade("checkpoints", "add", str(folder), env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok    reference.py" in proc.stdout and "valid; added" in proc.stdout
    listed = kgrade("checkpoints", "--json", env=env)
    assert "c3a-vector-add-copy" in listed.stdout
    graded = kgrade("grade", str(folder / "reference.py"), "-c", "c3a-vector-add-copy", env=env)
    assert "verdict: correct" in graded.stdout


def test_a_checkpoint_whose_reference_is_wrong_does_not_open(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "broken"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    shutil.copy(folder / "solutions" / "wrong" / "unwritten_buffer.py", folder / "reference.py")
    home, cache = tmp_path / "no-home-yet", tmp_path / "cache"
    env = {"KGRADE_HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    proc = kgrade("checkpoints", "validate", str(folder), env=env)
    assert proc.returncode == 1
    assert "FAIL  reference.py" in proc.stdout and "validation failed; not opened" in proc.stdout
    # validating writes no home (issue 31: it made ./.kgrade wherever it ran); its compile
    # cache goes to the user's cache folder
    assert not home.exists()
    assert (cache / "kgrade").is_dir()


def test_only_a_precheck_only_worker_is_started_at_lower_priority(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.cli.host import worker_argv
    from app.settings import get_settings

    monkeypatch.delenv("KGRADE_PRECHECK_NICE", raising=False)
    monkeypatch.delenv("KGRADE_PRECHECK_THREADS", raising=False)
    get_settings.cache_clear()
    assert worker_argv(["precheck"], beat=False)[:6] == [  # the defaults
        "nice",
        "-n",
        "10",
        "env",
        "OMP_NUM_THREADS=1",
        "MKL_NUM_THREADS=1",
    ]
    assert worker_argv(["precheck", "gpu.h200"], beat=False)[0] == sys.executable
    assert worker_argv(["gpu.h200"], beat=False)[0] == sys.executable
    get_settings.cache_clear()


def test_an_authoring_mistake_is_one_line_with_the_file_and_line(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "lab"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    problem = folder / "problem.py"
    problem.write_text(problem.read_text().replace("BASELINES = {", "1/0\nBASELINES = {"))
    n = problem.read_text().splitlines().index("1/0") + 1
    env = {"KGRADE_HOME": str(tmp_path / "home")}
    line = one_line_error(kgrade("checkpoints", "validate", str(folder), env=env))
    assert line == (
        f"kgrade: {folder}/problem.py, line {n}: does not load: it raised "
        "ZeroDivisionError: division by zero"
    )
    problem.write_text((ROOT / "reference_kernels" / "c3a_vector_add" / "problem.py").read_text())
    bad = folder / "solutions" / "wrong" / "missing_mask.py"
    bad.write_text(bad.read_text().replace("# expect: runtime_error", "# expect: crash"))
    line = one_line_error(kgrade("checkpoints", "add", str(folder), env=env))
    assert line.startswith(f"kgrade: {bad}, line 1: '# expect:' names 'crash', not a verdict")


def test_a_failed_check_says_why(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "broken"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    shutil.copy(folder / "solutions" / "wrong" / "unwritten_buffer.py", folder / "reference.py")
    proc = kgrade("checkpoints", "validate", str(folder), env={"KGRADE_HOME": str(tmp_path)})
    lines = proc.stdout.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("FAIL  reference.py"))
    assert lines[at + 1].strip().startswith("Wrong on ")  # the grading's reason, under it

"""A checkpoint's problem.py runs only in its own sandbox (grader/sandbox/problem.py): one that
reads KGRADE_HOME/secret_key or the service's credentials, opens a socket or writes outside
its folder gets nothing, neither from the API (which reads an upload as data and never runs
it), nor from its validation (a worker task, on PostgreSQL and Redis), nor from a grading.

The probe reports what it got in the one channel a checkpoint's code has to the people who
read its results, its error message; the host is checked too (no file written, no connection
made to a listener of the test)."""

from __future__ import annotations

import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader import Verdict, checkpoints, grade
from grader.options import GradeOptions
from grader.sandbox import bwrap
from grader.sandbox.bwrap import Limits
from tests.service.conftest import client, make_user, pg_url, service_env  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"
SECRET = "kgrade-test-secret-0123456789abcdef"

pytestmark = pytest.mark.skipif(bwrap.probe() is not None, reason="no bubblewrap here")

PROBE = """
import os as _os
import socket as _socket


def _probe():
    found = []
    try:
        with open({secret!r}) as fp:
            found.append("secret=" + fp.read())
    except Exception as exc:
        found.append("secret=" + type(exc).__name__)
    for var in ("KGRADE_HOME", "KGRADE_DATABASE_URL", "KGRADE_REDIS_URL", "KGRADE_SECRET_KEY"):
        found.append(var + "=" + _os.environ.get(var, "unset"))
    try:
        conn = _socket.create_connection(("127.0.0.1", {port}), timeout=2)
        conn.sendall(b"leak")
        found.append("socket=connected")
    except Exception as exc:
        found.append("socket=" + type(exc).__name__)
    for target in ({escape!r}, _os.path.join(_os.path.dirname(__file__), "..", "escaped.txt")):
        try:
            with open(target, "w") as fp:
                fp.write("escaped")
            found.append("write=ok")
        except Exception as exc:
            found.append("write=" + type(exc).__name__)
    return "; ".join(found)


{at_import}
"""


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(4)
    s.setblocking(False)
    yield s
    s.close()


def hostile_problem(secret: Path, escape: Path, port: int, mode: str) -> str:
    """The vector add's problem.py with the probe: raised at import, or from make_inputs."""
    at_import = 'raise RuntimeError("probe: " + _probe())' if mode == "import" else ""
    text = (VA / "problem.py").read_text() + PROBE.format(
        secret=str(secret), port=port, escape=str(escape), at_import=at_import
    )
    if mode == "inputs":
        text = text.replace(
            "    scale = float(case.params",
            '    raise RuntimeError("probe: " + _probe())\n    scale = float(case.params',
            1,
        )
    return text


def _said_nothing(words: str, listener: socket.socket, escape: Path) -> None:
    assert "probe: " in words, words
    assert SECRET not in words and "secret=" + "FileNotFoundError" in words, words
    for var in ("KGRADE_HOME", "KGRADE_DATABASE_URL", "KGRADE_REDIS_URL", "KGRADE_SECRET_KEY"):
        assert f"{var}=unset" in words, words
    assert "socket=connected" not in words and "write=ok" not in words, words
    with pytest.raises(BlockingIOError):  # nobody knocked
        listener.accept()
    assert not escape.exists()


def _folder(tmp_path: Path, problem: str) -> Path:
    folder = tmp_path / "lab_add"
    shutil.copytree(VA, folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    (folder / "problem.py").write_text(problem)
    return folder


def test_a_grading_runs_problem_py_in_its_sandbox(
    tmp_path: Path, listener: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret_key").write_text(SECRET)
    monkeypatch.setenv("KGRADE_HOME", str(home))
    monkeypatch.setenv("KGRADE_SECRET_KEY", SECRET)
    escape = tmp_path / "escaped.txt"
    port = listener.getsockname()[1]
    folder = _folder(tmp_path, hostile_problem(home / "secret_key", escape, port, "inputs"))
    result = grade(
        (VA / "reference.py").read_text(),
        checkpoints.load(folder),  # data only: nothing of problem.py has run yet
        GradeOptions(device="cpu", limits=Limits(wall_seconds=60)),
    )
    assert result.verdict is Verdict.INTERNAL_ERROR
    _said_nothing(" ".join(result.messages), listener, escape)


def test_the_same_checkpoint_without_the_probe_grades_correct(tmp_path: Path) -> None:
    folder = _folder(tmp_path, (VA / "problem.py").read_text())
    result = grade(
        (VA / "reference.py").read_text(),
        checkpoints.load(folder),
        GradeOptions(device="cpu", limits=Limits(wall_seconds=60)),
    )
    # the whole text (a time limit of the compile check was seen once in CI, its reason cut)
    assert result.verdict is Verdict.CORRECT, "\n".join(result.messages)


def test_an_upload_s_problem_py_never_runs_in_the_api_and_gets_nothing_in_validation(
    client,  # noqa: F811
    make_user,  # noqa: F811
    tmp_path: Path,
    listener: socket.socket,  # type: ignore[no-untyped-def]
) -> None:
    from app.settings import get_settings

    s = get_settings()
    secret = s.home / "secret_key"
    secret.parent.mkdir(parents=True, exist_ok=True)
    if not secret.exists():
        secret.write_text(SECRET)
    key = secret.read_text()
    escape = tmp_path / "escaped.txt"
    port = listener.getsockname()[1]
    toml = (VA / "checkpoint.toml").read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    body = {
        "definition": toml,
        "problem": hostile_problem(secret, escape, port, "import"),
        "reference": (VA / "reference.py").read_text(),
        "wrong": {p.name: p.read_text() for p in sorted((VA / "solutions" / "wrong").glob("*.py"))},
    }
    admin = make_user("root", "admin")
    from worker.tasks import validate_checkpoint

    posted = client.post("/api/checkpoints", headers=admin, json=body)
    assert posted.status_code == 202, posted.text  # read as data: accepted, nothing run
    assert not escape.exists()
    assert not [m for m in sys.modules if m.startswith("kgrade_problem")]  # never imported here
    validate_checkpoint(posted.json()["id"])  # what a precheck worker does with the message
    done = client.get(posted.json()["url"], headers=admin)
    assert done.status_code == 200, done.text
    report = done.json()["report"]
    assert not report["valid"]
    (check,) = report["checks"]
    assert (check["name"], check["ok"]) == ("problem.py", False)
    words = f"{check['reason']} {report['error']}"
    assert key not in words and str(s.database_url) not in words
    _said_nothing(words, listener, escape)
    listed = client.get("/api/checkpoints", headers=admin).json()
    assert "lab-add" not in [c["id"] for c in listed]

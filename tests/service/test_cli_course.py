"""The CLI's commands against a running server (uvicorn on PostgreSQL and Redis): history with
a student column for instructors, the server's checkpoints, overrides, open/close, evidence,
and the leaderboard's counts said in words."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.faults.stack import free_port, wait_for
from tests.service.conftest import stored

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(service_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "api.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, **service_env},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/api/health", timeout=2).status_code == 200, 60, url)
    except AssertionError:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError((tmp_path / "api.log").read_text()[-2000:]) from None
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def kgrade(url: str, token: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env |= {"KGRADE_URL": url} | ({"KGRADE_TOKEN": token} if token else {})
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def _graded(name: str, level: int) -> int:
    verdict = "correct" if level >= 2 else "wrong_answer"
    result = {"checkpoint": "c3a-softmax", "verdict": verdict, "level": level, "device": "cpu"}
    return stored(name, {**result, "messages": ["Level"]})


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def test_history_has_a_student_column_for_instructors(server: str, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, prof = _token(make_user("ann")), _token(make_user("prof", "instructor"))
    make_user("bob")
    _graded("ann", 2)
    _graded("bob", 1)
    staff = kgrade(server, prof, "history")
    assert staff.returncode == 0, staff.stderr
    assert [ln.split()[2] for ln in staff.stdout.splitlines()] == ["bob", "ann"]
    one = kgrade(server, prof, "history", "--student", "ann")
    assert [ln.split()[2] for ln in one.stdout.splitlines()] == ["ann"]
    mine = kgrade(server, ann, "history")
    assert mine.returncode == 0 and len(mine.stdout.splitlines()) == 1
    assert mine.stdout.split()[2] == "c3a-softmax"  # no student column for a student


def test_checkpoints_lists_the_servers_when_a_token_names_one(
    server: str, make_user, service_env: dict[str, str], tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from app.checkpoints import service
    from app.settings import get_settings
    from grader import checkpoints

    folder = tmp_path / "lab_add"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    service.install(get_settings(), checkpoints.load(folder))  # in the server's home only
    ann = _token(make_user("ann"))
    remote = kgrade(server, ann, "checkpoints")
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout.splitlines()[0] == f"checkpoints on {server}:"
    assert "lab-add" in remote.stdout  # the server's, which this machine does not have
    local = kgrade(server, None, "checkpoints")
    assert local.stdout.splitlines()[0].startswith("checkpoints on this machine (no KGRADE_TOKEN")
    assert "lab-add" not in local.stdout
    assert "lab-add" not in kgrade(server, ann, "checkpoints", "--local").stdout
    # open and close, by an admin
    root = _token(make_user("root", "admin"))
    closed = kgrade(server, root, "checkpoints", "close", "lab-add")
    assert closed.returncode == 0 and closed.stdout.strip() == "lab-add: closed"
    assert "(closed)" in kgrade(server, ann, "checkpoints").stdout
    assert kgrade(server, root, "checkpoints", "open", "lab-add").stdout.strip() == "lab-add: open"
    refused = kgrade(server, ann, "checkpoints", "close", "lab-add")
    assert (
        refused.returncode == 2 and "admin" in refused.stderr and "Traceback" not in refused.stderr
    )


def test_override_and_evidence_from_the_cli(server: str, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, prof = _token(make_user("ann")), _token(make_user("prof", "instructor"))
    sid = _graded("ann", 3)
    over = kgrade(server, prof, "override", str(sid), "2", "--note", "explanation copied")
    assert over.returncode == 0, over.stderr
    assert over.stdout.strip() == (
        f"submission {sid}: level 3 → 2 by prof (explanation copied); 1 override(s) kept"
    )
    assert kgrade(server, ann, "override", str(sid), "4", "--note", "x").returncode == 2
    back = kgrade(server, prof, "override", str(sid), "3", "--note", "re-read")
    assert back.returncode == 0
    ev = kgrade(
        server, ann, "evidence", str(sid), "https://github.com/linkedin/Liger-Kernel/pull/1"
    )
    assert ev.returncode == 0, ev.stderr
    eid = ev.stdout.split()[1]
    assert ev.stdout.strip().endswith("pending (https://github.com/linkedin/Liger-Kernel/pull/1)")
    usage = kgrade(server, prof, "evidence", "decide", eid)
    assert usage.returncode == 2 and "approve|decline" in usage.stderr
    ok = kgrade(server, prof, "evidence", "decide", eid, "approve", "--note", "merged")
    assert ok.returncode == 0 and ok.stdout.strip() == f"evidence {eid}: approved"
    again = kgrade(server, prof, "evidence", "decide", eid, "decline")
    assert again.returncode == 2 and "already approved" in again.stderr
    status = httpx.get(
        f"{server}/api/submissions/{sid}", headers={"Authorization": f"Bearer {ann}"}
    ).json()
    assert status["level"] == 4


def test_the_leaderboard_says_1_submission(server: str, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = _token(make_user("prof", "instructor"))
    make_user("ann")
    make_user("bob")
    _graded("ann", 2)
    _graded("bob", 2)
    _graded("bob", 1)
    out = kgrade(server, prof, "leaderboard", "c3a-softmax").stdout
    assert "(1 submission)" in out and "(2 submissions)" in out and "(1 submissions)" not in out


def test_checkpoints_add_goes_to_the_configured_server_and_writes_nothing_here(
    server: str, make_user, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Issue 31: `kgrade checkpoints add FOLDER` installed into ./.kgrade of the current folder
    while list/open/close/deadline acted on the server. With a server configured it posts the
    folder there (no worker runs here: it stays queued, --no-wait); without a token it says so
    and installs nowhere silently."""
    folder = tmp_path / "lab"
    shutil.copytree(ROOT / "reference_kernels" / "c3a_vector_add", folder)
    toml = folder / "checkpoint.toml"
    toml.write_text(toml.read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"'))
    here = tmp_path / "cwd"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    admin = make_user("root", "admin")["Authorization"].split()[1]
    student = make_user("ann")["Authorization"].split()[1]

    def add(token: str, *more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "app.cli", "checkpoints", "add", str(folder), *more],
            capture_output=True,
            text=True,
            cwd=here,
            env=env | {"KGRADE_URL": server, "KGRADE_TOKEN": token, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )

    refused = add(student, "--no-wait")
    assert refused.returncode != 0 and "admin" in (refused.stderr + refused.stdout).lower()
    sent = add(admin, "--no-wait")
    assert sent.returncode == 0, sent.stderr
    assert f"lab-add: sent to {server}" in sent.stdout and "queued" in sent.stdout
    vid = re.search(r"validation (\d+)", sent.stdout)
    assert vid, sent.stdout
    queued = httpx.get(
        f"{server}/api/checkpoints/validations/{vid.group(1)}",
        headers={"Authorization": f"Bearer {admin}"},
        timeout=10,
    )
    assert queued.status_code == 200 and queued.json()["checkpoint"] == "lab-add"
    assert list(here.iterdir()) == []  # no ./.kgrade, nothing installed on this machine

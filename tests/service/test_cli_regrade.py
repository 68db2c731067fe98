"""`kgrade regrade` and `kgrade results` against a running server (uvicorn on PostgreSQL and
Redis); the regrade's precheck is run here, in this process, as a precheck worker runs it."""

from __future__ import annotations

from tests.service.conftest import stored
from tests.service.test_cli_course import kgrade, server  # noqa: F401  (the fixture)

GRADED = {"checkpoint": "c3a-softmax", "device": "cpu", "verdict": "wrong_answer", "level": 1}


def test_regrade_a_submission_from_the_cli_and_list_its_results(  # type: ignore[no-untyped-def]
    server: str,  # noqa: F811
    make_user,
) -> None:
    from worker.tasks import precheck

    ann = make_user("ann")["Authorization"].split()[1]
    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    sid = stored("ann", GRADED)
    usage = kgrade(server, prof, "regrade")
    assert usage.returncode == 2 and "--submission ID" in usage.stderr
    alone = kgrade(server, prof, "regrade", "--student", "ann")
    assert alone.returncode == 2 and "--student needs --checkpoint" in alone.stderr
    refused = kgrade(server, ann, "regrade", "--submission", str(sid))
    assert refused.returncode == 2 and "HTTP 403" in refused.stderr
    assert "Traceback" not in refused.stderr

    started = kgrade(server, prof, "regrade", "--submission", str(sid))
    assert started.returncode == 0, started.stderr
    assert started.stdout.startswith(f"regrade 1 of submission {sid} with version ")
    assert started.stdout.strip().endswith(": 0/1 done (running)")
    status = kgrade(server, ann, "status", str(sid))
    assert f"submission {sid}: being regraded (regrade 1)" in status.stdout
    precheck(sid)
    done = kgrade(server, prof, "regrade", "--status", "1", "--wait")
    assert done.returncode == 0 and done.stdout.strip().endswith(": 1/1 done (done)")
    lines = kgrade(server, ann, "results", str(sid)).stdout.splitlines()
    assert len(lines) == 2, lines
    assert "regrade 1" in lines[0] and lines[0].endswith("(current)")
    assert "before versions" in lines[1] and "first grading" in lines[1]
    assert "wrong_answer" in lines[1] and "level 1" in lines[1]
    # the version that graded it is still the installed one: refused unless forced
    same = ("regrade", "--checkpoint", "c3a-softmax", "--student", "ann")
    refused = kgrade(server, prof, *same)
    assert refused.returncode == 2 and "already graded with version" in refused.stderr
    assert "--force" in refused.stderr and "HTTP 409" in refused.stderr
    everyone = kgrade(server, prof, *same, "--force", "--clear-overrides")
    assert everyone.returncode == 0 and "ann's submissions to c3a-softmax" in everyone.stdout
    assert "overrides cleared" in everyone.stdout


def test_regrade_wait_survives_the_api_restarting(service_env, make_user, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`--wait` tries again when the connection is refused (the API restarted), instead of
    giving up on the first refusal."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import httpx

    from tests.faults.stack import free_port, wait_for
    from worker.tasks import precheck

    prof = make_user("prof", "instructor")
    sid = stored("prof", GRADED)
    port = free_port()
    url = f"http://127.0.0.1:{port}"

    def api() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
            env={**os.environ, **service_env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    first = api()
    wait_for(lambda: httpx.get(f"{url}/api/health", timeout=2).status_code == 200, 60, url)
    r = httpx.post(f"{url}/api/regrades", headers=prof, json={"submission": sid})
    assert r.status_code == 202, r.text
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env |= {"KGRADE_URL": url, "KGRADE_TOKEN": prof["Authorization"].split()[1]}
    follower = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "regrade", "--status", str(r.json()["id"]), "--wait"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)
    os.killpg(first.pid, signal.SIGKILL)  # the API goes away while it is followed
    first.wait()
    time.sleep(3)
    second = api()
    try:
        wait_for(lambda: httpx.get(f"{url}/api/health", timeout=2).status_code == 200, 60, url)
        precheck(sid)
        out, err = follower.communicate(timeout=120)
        assert follower.returncode == 0, err
        assert out.strip().endswith(": 1/1 done (done)")
    finally:
        follower.kill()
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=30)

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
    everyone = kgrade(server, prof, "regrade", "--checkpoint", "c3a-softmax", "--student", "ann")
    assert everyone.returncode == 0 and "ann's submissions to c3a-softmax" in everyone.stdout

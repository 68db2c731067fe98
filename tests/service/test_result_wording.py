"""Issue 31's result-page wording, on the page a student sees (PostgreSQL and Redis, results
graded here for real): a hidden case's failure before and after the due time, a NaN row, the
cases in the checkpoint's order, the autotune configs once, the program's output without the
server's paths; and `kgrade submit --wait` saying a late submission is late."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grader import GradeOptions, GradeResult, checkpoints, grade
from grader.sandbox.bwrap import Limits
from tests.conftest import FIXTURES
from tests.service.conftest import signin_form, stored
from tests.service.test_cli_course import _token, server  # noqa: F401 (a fixture)
from tests.service.test_deadlines import _at, _deadline, _hidden_result

ROOT = Path(__file__).resolve().parents[2]


def _graded(source: str, cid: str) -> dict[str, Any]:
    options = GradeOptions(device="cpu", limits=Limits(wall_seconds=120))
    return grade(source, checkpoints.get(cid), options).model_dump(mode="json")


@pytest.fixture(scope="module")
def tail_config() -> dict[str, Any]:
    """A vector add whose BLOCK=128 config leaves the last element unwritten (NaN)."""
    return _graded(
        (FIXTURES / "wording" / "vector_add_tail_config.py").read_text(), "c3a-vector-add"
    )


def _page(client: TestClient, who: dict[str, str], sid: int) -> str:
    token = who["Authorization"].split()[1]
    client.cookies.clear()
    r = client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    assert r.status_code == 303
    page = client.get(f"/submissions/{sid}")
    assert page.status_code == 200 and "Traceback" not in page.text
    return page.text


def _rows(page: str) -> list[list[str]]:
    rows = re.findall(r'<tr class="case">(.*?)</tr>', page, re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td.*?</td>", r, re.S)]
        for r in rows
    ]


def test_a_hidden_case_says_how_it_failed_and_when_it_is_shown(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof, ann = make_user("prof", "instructor"), make_user("ann")
    result = _hidden_result()
    result["cases"][1] |= {"failure": "values", "max_abs_err": 0.5}
    sid = stored("ann", result, "c3a-softmax")
    due = _deadline(client, prof, due=_at(days=1), policy="accept", timezone="Europe/Berlin")
    assert due.status_code == 200
    page = _page(client, ann, sid)
    assert "None" not in page and "secret-wide" not in page and "3000" not in page
    (hidden,) = [r for r in _rows(page) if r[0] == "hidden-1"]
    assert hidden[1] == "hidden until the due time" and hidden[2] == ""
    assert hidden[6].startswith("Failed: values outside the tolerance. This case is hidden until")
    assert "(Europe/Berlin)" in hidden[6]
    assert "1 hidden case failed (hidden-1: values outside the tolerance)" in page
    # after the due time: shown as any case
    assert _deadline(client, prof, due=_at(minutes=-1)).status_code == 200
    page = _page(client, ann, sid)
    (shown,) = [r for r in _rows(page) if r[0] == "secret-wide"]
    assert shown[1] == "(3, 3000)" and shown[2] == "float32" and shown[5] == "5.00e-01"


def test_a_nan_case_the_configs_and_the_order_on_the_page(
    client: TestClient, make_user, tail_config: dict[str, Any]
) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    sid = stored("ann", tail_config, "c3a-vector-add")
    page = _page(client, ann, sid)
    rows = _rows(page)
    declared = checkpoints.get("c3a-vector-add").definition.interpreter_cases
    assert [r[0] for r in rows] == [c.name for c in declared]
    assert all(r[5] == "NaN/inf in 1 element" for r in rows), rows
    assert "0.00e+00" not in page
    # the wrong config is listed once: in the configs' table (and named by the first failure)
    assert page.count("_add_kernel(BLOCK=128, num_warps=4)</code>") == 1
    assert "wrong for widths" not in " ".join(re.findall(r'<p class="msg">(.*?)</p>', page))
    assert "exp()" not in page and "smaller than the row" not in page


def test_the_programs_output_shows_no_server_path_and_wraps(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    source = (ROOT / "reference_kernels" / "c3a_softmax" / "reference.py").read_text()
    result = _graded(source, "c3a-softmax")
    result["stdout"] += "\n" + "a long line " * 40  # wrapped by the page, not clipped
    page = _page(client, ann, stored("ann", result, "c3a-softmax"))
    (out,) = re.findall(r'<pre class="output" id="program-output">(.*?)</pre>', page, re.S)
    assert "RuntimeWarning" in out or "a long line" in out
    assert sys.prefix not in out and str(ROOT) not in out and "site-packages/triton" not in out
    css = (ROOT / "app" / "web" / "static" / "style.css").read_text()
    assert re.search(r"pre\.output \{[^}]*white-space: pre-wrap", css)


def test_submit_wait_says_a_late_submission_is_late(
    server: str,  # noqa: F811
    make_user,
    client: TestClient,
) -> None:  # type: ignore[no-untyped-def]
    from app.db import transaction
    from app.models import Stage, Status, Submission

    prof, ann = make_user("prof", "instructor"), make_user("ann")
    assert _deadline(client, prof, due=_at(minutes=-5), policy="accept").status_code == 200
    reference = ROOT / "reference_kernels" / "c3a_softmax" / "reference.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    env |= {"KGRADE_URL": server, "KGRADE_TOKEN": _token(ann)}
    cli = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "submit", str(reference), "-c", "c3a-softmax", "--wait"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        sid = None
        for _ in range(200):  # no worker here: the test grades it, as a worker would
            with transaction() as s:
                sub = s.query(Submission).order_by(Submission.id.desc()).first()
                if sub is not None and sub.late:
                    result = GradeResult.model_validate(
                        {
                            "checkpoint": "c3a-softmax",
                            "verdict": "correct",
                            "level": 2,
                            "device": "cpu",
                            "messages": ["Level 2: correct."],
                        }
                    )
                    sub.status, sub.stage = Status.DONE, Stage.DONE
                    sub.verdict, sub.level, sub.result = (
                        "correct",
                        2,
                        result.model_dump(mode="json"),
                    )
                    sid = sub.id
                    break
            time.sleep(0.1)
        assert sid is not None
        out, err = cli.communicate(timeout=60)
    finally:
        cli.kill()
    assert cli.returncode == 0, err
    # said with the report (stdout), as the page says it beside the heading; kgrade status too
    assert out.splitlines()[0] == f"submission {sid}: late (made after the due time)", out

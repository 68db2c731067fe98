"""The submit form sends CRLF line ends (as every browser does): the text is kept with Python's
line ends, and a refused submission's form shows it again without a carriage return on each
line (it once came back with one on every line of the starter: a SyntaxError when sent as it
was)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form

ROOT = Path(__file__).resolve().parents[2]
STARTER = (ROOT / "reference_kernels" / "c3a_softmax" / "starter.py").read_text()


def _form(client: TestClient, token: str) -> str:
    assert client.post("/signin", data=signin_form(client, {"token": token})).status_code in (
        200,
        303,
    )
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/submit").text)
    assert found
    return found.group(1)


def test_a_refused_submission_comes_back_without_carriage_returns(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    from app.db import sessions
    from app.models import Submission

    token = make_user("ann")["Authorization"].split()[1]
    prof = make_user("prof", "instructor")
    csrf = _form(client, token)
    crlf = STARTER.replace("\n", "\r\n")
    due = {"due": "2026-01-01T00:00:00", "timezone": "UTC"}  # past: refused
    client.put("/api/checkpoints/c3a-softmax/deadline", headers=prof, json=due).raise_for_status()
    refused = client.post(
        "/submit", data={"csrf": csrf, "checkpoint": "c3a-softmax", "source": crlf}
    )
    assert refused.status_code == 403, refused.text[:300]
    shown = re.search(r'<textarea id="source"[^>]*>(.*?)</textarea>', refused.text, re.S)
    assert shown and "\r" not in shown.group(1) and "def " in shown.group(1)
    client.delete("/api/checkpoints/c3a-softmax/deadline", headers=prof).raise_for_status()
    ok = client.post(
        "/submit",
        data={"csrf": csrf, "checkpoint": "c3a-softmax", "source": crlf},
        follow_redirects=False,
    )
    assert ok.status_code == 303, ok.text[:300]
    with sessions()() as s:
        assert "\r" not in s.query(Submission).one().source


def test_the_submit_page_promises_only_the_gpu_this_deployment_has(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    """Issue 31: the page said "then on an RTX 5090 or H200 GPU ... for level 3" on a deployment
    with no GPU worker, where a grading stops at level 2."""
    from app.db import transaction
    from app.health import service as health

    token = make_user("ann")["Authorization"].split()[1]
    _form(client, token)

    def said() -> str:
        html = client.get("/submit?checkpoint=c3a-softmax").text
        m = re.search(r'<p class="muted" id="gpu-promise">(.*?)</p>', html, re.S)
        assert m, html[-2000:]
        return " ".join(m.group(1).split())

    assert "no GPU worker is running" in said() and "level 2" in said()
    with transaction() as s:
        health.report_seen(s, "gpu-host:1", "gpu.h200", "NVIDIA H200", True, "ok")
    now = said()
    assert "NVIDIA H200" in now and "level 3" in now and "no GPU worker" not in now

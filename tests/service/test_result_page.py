"""The result page with a real GPU result (the H200 record committed in benchmarks/results):
benchmark table, roofline plot, Nsight comparison and explanation check are rendered."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import Stage, Status, Submission, User
from tests.service.conftest import signin_form

RECORD = (
    Path(__file__).resolve().parents[2]
    / "benchmarks"
    / "results"
    / "2026-11-29-h200-references.json"
)


def test_a_gpu_result_renders_its_evidence(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    token = make_user("ann")["Authorization"].split()[1]
    graded = json.loads(RECORD.read_text())["c3a-softmax"]["second"]
    with transaction() as s:
        ann = s.query(User).filter_by(name="ann").one()
        sub = Submission(
            user_id=ann.id,
            checkpoint="c3a-softmax",
            source="import torch\n",
            status=Status.DONE,
            stage=Stage.DONE,
            verdict=graded["verdict"],
            level=graded["level"],
            speedup=1.6,
            gpu_model="h200",
            result=graded,
        )
        s.add(sub)
        s.flush()
        sid = sub.id
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    page = client.get(f"/submissions/{sid}").text
    assert 'data-verdict="correct"' in page and "level 3" in page
    assert "Benchmark on NVIDIA H200" in page and "course-8192x4096-fp32" in page
    assert "<svg" in page and "Bandwidth roofline" in page  # drawn by matplotlib
    assert "Nsight Compute" in page and "naive" in page
    assert "Explanation check: backed" in page
    assert client.get("/history").status_code == 200


def test_forms_without_the_csrf_token_are_refused(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    token = make_user("ann")["Authorization"].split()[1]
    client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    r = client.post("/submit", data={"checkpoint": "c3a-softmax", "source": "x", "csrf": "forged"})
    assert r.status_code == 403 and "form expired" in r.text
    assert "Traceback" not in r.text

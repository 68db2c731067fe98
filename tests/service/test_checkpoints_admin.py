"""Admins add a checkpoint through the API: it opens only after its validation run."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
VA = ROOT / "reference_kernels" / "c3a_vector_add"
pytestmark = pytest.mark.slow


def _body(reference: Path) -> dict[str, object]:
    toml = (VA / "checkpoint.toml").read_text().replace('id = "c3a-vector-add"', 'id = "lab-add"')
    return {
        "definition": toml,
        "problem": (VA / "problem.py").read_text(),
        "reference": reference.read_text(),
        "starter": (VA / "starter.py").read_text(),
        "wrong": {p.name: p.read_text() for p in sorted((VA / "solutions" / "wrong").glob("*.py"))},
    }


def test_a_valid_checkpoint_opens_and_can_be_closed(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin, ann = make_user("root", "admin"), make_user("ann")
    assert (
        client.post("/api/checkpoints", headers=ann, json=_body(VA / "reference.py")).status_code
        == 403
    )
    r = client.post("/api/checkpoints", headers=admin, json=_body(VA / "reference.py"))
    assert r.status_code == 201, r.text
    assert r.json()["valid"] and all(c["ok"] for c in r.json()["checks"])
    assert "lab-add" in [c["id"] for c in client.get("/api/checkpoints", headers=ann).json()]
    sub = {"checkpoint": "lab-add", "source": (VA / "reference.py").read_text()}
    assert client.post("/api/submissions", headers=ann, json=sub).status_code == 201
    closed = client.patch("/api/checkpoints/lab-add", headers=admin, json={"open": False})
    assert closed.status_code == 200 and closed.json()["open"] is False
    r = client.post("/api/submissions", headers=ann, json=sub)
    assert r.status_code == 409 and "closed" in r.json()["error"]
    builtin = client.patch("/api/checkpoints/c3a-softmax", headers=admin, json={"open": False})
    assert builtin.status_code == 409


def test_a_checkpoint_with_a_wrong_reference_never_opens(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin = make_user("root", "admin")
    r = client.post(
        "/api/checkpoints",
        headers=admin,
        json=_body(VA / "solutions" / "wrong" / "unwritten_buffer.py"),
    )
    assert r.status_code == 422 and not r.json()["valid"]
    assert "not opened" in r.json()["error"]
    ref = next(c for c in r.json()["checks"] if c["name"] == "reference.py")
    assert ref["got"] == "wrong_answer"
    assert "lab-add" not in [c["id"] for c in client.get("/api/checkpoints", headers=admin).json()]

"""Issue 31: a course shapes its checkpoints. Built-in checkpoints could not be closed (409), so
a course that does not use attention or GEMM showed them to every student; the home page
listed checkpoints alphabetically rather than in the course's order."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form


def _home_order(client: TestClient, token: str) -> list[str]:
    client.post("/signin", data=signin_form(client, {"token": token}))
    return re.findall(
        r'<section class="card checkpoint" data-checkpoint="([^"]+)"', client.get("/").text
    )


def test_an_admin_closes_a_built_in_and_orders_the_home_page(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    admin, ann = make_user("root", "admin"), make_user("ann")
    token = ann["Authorization"].split()[1]
    assert "c3a-attention" in _home_order(TestClient(client.app), token)

    r = client.patch("/api/checkpoints/c3a-attention", headers=admin, json={"open": False})
    assert r.status_code == 200 and r.json()["open"] is False, r.text
    sent = client.post(
        "/api/submissions", headers=ann, json={"checkpoint": "c3a-attention", "source": "x = 1"}
    )
    assert sent.status_code == 409 and "closed" in sent.json()["error"], sent.text
    listed = {c["id"]: c["open"] for c in client.get("/api/checkpoints", headers=ann).json()}
    assert listed["c3a-attention"] is False and listed["c3a-softmax"] is True
    assert "c3a-attention" not in _home_order(TestClient(client.app), token)  # nothing sent there

    order = ["c3a-vector-add", "c3a-softmax"]
    assert (
        client.put("/api/checkpoints/order", headers=ann, json={"order": order}).status_code == 403
    )
    bad = client.put("/api/checkpoints/order", headers=admin, json={"order": ["no-such"]})
    assert bad.status_code == 404 and "no-such" in bad.json()["error"], bad.text
    r = client.put("/api/checkpoints/order", headers=admin, json={"order": order})
    assert r.status_code == 200, r.text
    shown = _home_order(TestClient(client.app), token)
    assert shown[:2] == order  # the course's order first, the rest after it as before
    assert [c["id"] for c in client.get("/api/checkpoints", headers=ann).json()][:2] == order

    r = client.patch("/api/checkpoints/c3a-attention", headers=admin, json={"open": True})
    assert r.status_code == 200 and r.json()["open"] is True
    assert "c3a-attention" in _home_order(TestClient(client.app), token)

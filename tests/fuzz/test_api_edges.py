"""What the schemathesis run found, pinned down: each of these answered 500 before its fix."""

from __future__ import annotations

import pytest

from tests.service.conftest import signin_form

BIG = 4405734656  # past PostgreSQL's integer: the query itself failed


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", f"/api/submissions/{BIG}", None),
        ("GET", f"/api/submissions/{BIG}/overrides", None),
        ("POST", f"/api/submissions/{BIG}/override", {"level": 1, "note": "x"}),
        ("POST", f"/api/submissions/{BIG}/evidence", {"url": "https://example.com/1"}),
        ("POST", f"/api/submissions/evidence/{BIG}/decision", {"approve": True}),
        ("GET", f"/submissions/{BIG}", None),
        ("GET", f"/submissions/{BIG}/status", None),
    ],
)
def test_an_id_past_the_database_integer_is_not_a_server_error(  # type: ignore[no-untyped-def]
    client,
    make_user,
    method: str,
    path: str,
    body: object,
) -> None:
    headers = make_user("prof", "admin")
    client.post(
        "/signin", data=signin_form(client, {"token": headers["Authorization"].split()[1]})
    )  # the pages
    r = client.request(method, path, headers=headers, json=body)
    assert r.status_code in (404, 422), (r.status_code, r.text[:200])


def test_export_of_a_non_ascii_checkpoint_name_is_not_a_server_error(client, make_user) -> None:  # type: ignore[no-untyped-def]
    """No checkpoint has such a name (an id is ASCII), so it is an unknown checkpoint: 404, in
    JSON for the API and a page for the browser, never a 500 from a non-ASCII header."""
    r = client.get("/api/export/%C4%80%22x.csv", headers=make_user("prof", "instructor"))
    assert r.status_code == 404 and "unknown checkpoint" in r.json()["error"], r.text[:200]
    client.post(
        "/signin",
        data=signin_form(client, {"token": make_user("ann", "instructor")["Authorization"][7:]}),
    )
    page = client.get("/leaderboard/%C4%80%22x/grades.csv")
    assert page.status_code == 404, page.text[:200]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/submissions?checkpoint=a%00b", None),
        ("GET", "/api/submissions?student=a%00b", None),
        ("GET", "/api/leaderboard/a%00b", None),
        ("GET", "/api/export/a%00b.csv", None),
        ("POST", "/api/submissions", {"checkpoint": "c3a-vector-add", "source": "x = 1\x00"}),
        ("GET", "/history?checkpoint=a%00b", None),
        ("GET", "/leaderboard/a%00b", None),
    ],
)
def test_a_nul_character_is_a_client_error(  # type: ignore[no-untyped-def]
    client, make_user, method: str, path: str, body: object
) -> None:
    """PostgreSQL text cannot hold NUL: the driver refuses the value before it is sent."""
    from app.db import sessions
    from app.models import Submission

    headers = make_user("prof", "admin")
    client.post("/signin", data=signin_form(client, {"token": headers["Authorization"].split()[1]}))
    r = client.request(method, path, headers=headers, json=body)
    assert r.status_code in (200, 400, 404, 422), (r.status_code, r.text[:200])
    with sessions()() as s:
        assert s.query(Submission).count() == 0

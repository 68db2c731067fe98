"""Signing a TestClient in to the pages, as a browser does: the sign-in form (with its CSRF
token) and then the CSRF token of the session's forms."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def form_csrf(client: TestClient, path: str = "/submit") -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert m, f"no CSRF token on {path}"
    return m.group(1)


def sign_in(client: TestClient, headers: dict[str, str]) -> str:
    """Signed in with the token of `headers`; the session's CSRF token."""
    token = headers["Authorization"].split()[1]
    data = {"token": token}
    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/signin").text)
    if m:
        data["csrf"] = m.group(1)
    r = client.post("/signin", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return form_csrf(client)


def graded(user: str, level: int, checkpoint: str = "c3a-vector-add") -> int:
    """A graded submission of `user` at `level`, as a worker would have left it; its id."""
    from app.db import transaction
    from app.models import Stage, Status, Submission, User

    with transaction() as s:
        u = s.query(User).filter_by(name=user).one()
        sub = Submission(
            user_id=u.id,
            checkpoint=checkpoint,
            source="x",
            status=Status.DONE,
            stage=Stage.DONE,
            level=level,
            verdict="correct",
            speedup=1.5,
            gpu_model="h200",
        )
        s.add(sub)
        s.flush()
        return sub.id

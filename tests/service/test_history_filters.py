"""/history for staff: `?student=` and `?section=` filter it (they were ignored), and a page
ends with a link to the older submissions instead of stopping silently at 500 rows."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.db import transaction
from app.models import User
from tests.service.conftest import signin_form, stored

RESULT = {"checkpoint": "c3a-softmax", "device": "cpu", "verdict": "correct", "level": 2}


def _ids(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'<tr><td><a href="/submissions/(\d+)">', html)]


def test_history_filters_by_student_and_section_and_pages(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    from app.web import submissions

    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    for name in ("ann", "bob", "cy"):
        make_user(name)
    with transaction() as s:
        for name, section in (("ann", "A"), ("bob", "B"), ("cy", "A")):
            s.query(User).filter_by(name=name).one().section = section
    ann = [stored("ann", RESULT) for _ in range(3)]
    bob = [stored("bob", RESULT)]
    cy = [stored("cy", RESULT)]
    signed_in = client.post("/signin", data=signin_form(client, {"token": prof}))
    assert signed_in.status_code in (200, 303)
    assert _ids(client.get("/history?student=ann").text) == ann[::-1]
    assert _ids(client.get("/history?section=A").text) == sorted(ann + cy, reverse=True)
    assert _ids(client.get("/history?section=B").text) == bob
    monkeypatch.setattr(submissions, "PAGE_ROWS", 2)
    first = client.get("/history?section=A").text
    assert _ids(first) == sorted(ann + cy, reverse=True)[:2]
    older = re.search(r'<a id="older" href="([^"]+)"', first)
    assert older, first[-800:]
    rest = client.get(older.group(1).replace("&amp;", "&")).text
    assert _ids(rest) == sorted(ann + cy, reverse=True)[2:]
    assert 'id="older"' not in rest

"""A refused override on the web (level 4 on a result the grader did not give level 3) is a
page that says why and links back to the submission (it once said "Back to submitting")."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form, stored


def test_a_refused_level_4_links_back_to_its_submission(
    client: TestClient,
    make_user,  # type: ignore[no-untyped-def]
) -> None:
    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    make_user("ann")
    result = {"checkpoint": "c3a-softmax", "device": "cpu", "verdict": "correct", "level": 2}
    sid = stored("ann", {**result, "messages": ["Level 2"]})
    assert client.post("/signin", data=signin_form(client, {"token": prof})).status_code in (
        200,
        303,
    )
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(f"/submissions/{sid}").text)
    assert found
    form = {"csrf": found.group(1), "level": "4", "note": "great"}
    r = client.post(f"/submissions/{sid}/override", data=form, follow_redirects=False)
    assert r.status_code == 409 and "level 4 builds on level 3" in r.text
    assert f'<a href="/submissions/{sid}">Back to submission {sid}</a>' in r.text
    assert "Back to submitting" not in r.text

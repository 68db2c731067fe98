"""The result page shows the explanation as read, sentence by sentence, and its re-check:
the student corrects the claims and re-checks against the same stored measurements (the
recorded H200 grading of the lab file, tests/grader/recorded.py), with no GPU run."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.grader.recorded import grading
from tests.service.conftest import signin_form, stored

MISREAD = (
    "Softmax is memory-bound, so only the bytes moved matter. My fused kernel moves 244 MB "
    "of DRAM traffic, 4.16× less than the naive version. It is 1.62× faster than torch. Its "
    "reuse is 92 %. I chose softmax rather than a GEMM because cuBLAS wins GEMM on SM_120."
)


def _page(client: TestClient, make_user, explanation: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    from grader import checkpoints
    from grader.judge import explanation as check

    token = make_user("ann")["Authorization"].split()[1]
    result = grading().model_copy(deep=True)
    rubric = checkpoints.get("c3a-softmax").definition.rubric
    result.explanation = check.check(explanation, rubric, result.citable)
    result.level = 3 if result.explanation.backed else 2
    sid = stored("ann", result.model_dump(mode="json"), explanation=explanation)
    assert (
        client.post(
            "/signin", data=signin_form(client, {"token": token}), follow_redirects=False
        ).status_code
        == 303
    )
    return sid, client.get(f"/submissions/{sid}").text


def test_the_page_shows_the_reading_and_a_recheck_changes_it(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    sid, html = _page(client, make_user, MISREAD)
    assert 'id="claims-read"' in html and "Explanation check: not backed" in html
    assert "not read" in html and "a percentage of what?" in html
    assert "My fused kernel moves 244 MB" in html  # the sentence, beside its claims
    assert 'id="recheck"' in html and "traffic, mine: 244 MB" in html  # the block to edit
    csrf = re.search(r'name="csrf" value="([^"]+)"', html)
    assert csrf is not None
    text = re.search(r'<textarea name="explanation"[^>]*>(.*?)</textarea>', html, re.S)
    assert text is not None
    edited = text.group(1).replace("&lt;", "<").replace("&#39;", "'").replace("&amp;", "&")
    line = next(x for x in edited.splitlines() if x.startswith("# WHAT, WHOSE: 92 %"))
    fixed = edited.replace(line, "occupancy, mine: 92 %")
    r = client.post(
        f"/submissions/{sid}/explanation/recheck",
        data={"explanation": fixed, "csrf": csrf.group(1)},
    )
    assert r.status_code == 200, r.text
    assert 'data-level="3"' in r.text and "Explanation check: backed" in r.text
    wrong = edited.replace(line, "l2 hit rate, mine: 92 %")
    r = client.post(
        f"/submissions/{sid}/explanation/recheck",
        data={"explanation": wrong, "csrf": csrf.group(1)},
    )
    assert 'data-level="2"' in r.text and "50 %" in r.text  # the measured L2 hit rate
    forged = client.post(
        f"/submissions/{sid}/explanation/recheck", data={"explanation": fixed, "csrf": "x"}
    )
    assert forged.status_code == 403


def test_another_students_submission_cannot_be_rechecked(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    sid, _ = _page(client, make_user, MISREAD)
    token = make_user("bob")["Authorization"].split()[1]
    client.cookies.clear()
    client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    html = client.get("/submit?checkpoint=c3a-softmax").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', html)
    assert csrf is not None
    token_value = csrf.group(1)
    r = client.post(
        f"/submissions/{sid}/explanation/recheck",
        data={"explanation": MISREAD, "csrf": token_value},
    )
    assert r.status_code in (403, 404) and "Traceback" not in r.text

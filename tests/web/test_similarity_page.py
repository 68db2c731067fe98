"""The similarity page in Chromium: linked from the leaderboard, the pair of a disguised copy
with its shared regions side by side; a student gets the 403 page."""

from __future__ import annotations

import httpx

from tests.app.similarity_disguise import disguise, starter
from tests.web.test_pages import SHOTS, SOFTMAX, _sign_in, browser, live  # noqa: F401 (fixtures)
from tests.web.test_pages import pytestmark as _marks

pytestmark = _marks  # slow; skipped without Chromium


def test_an_instructor_reads_the_shared_regions_side_by_side(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811 (the imported fixture)
    browser,  # noqa: F811
    make_user,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    original = (SOFTMAX / "reference.py").read_text()
    sources = {"ann": original, "bob": disguise(original, seed=5), "cy": starter("c3a-softmax")}
    tokens = {}
    for name, src in sources.items():
        who = make_user(name)
        tokens[name] = who["Authorization"].split()[1]
        body = {"checkpoint": "c3a-softmax", "source": src}
        assert httpx.post(f"{live}/api/submissions", headers=who, json=body).status_code == 201
    prof = _sign_in(browser, live, make_user("prof", "instructor")["Authorization"].split()[1])
    prof.goto(f"{live}/leaderboard/c3a-softmax")
    prof.click("text=Similarity report")
    prof.wait_for_url(f"{live}/similarity/c3a-softmax")
    pairs = prof.locator("section.similarity-pair")
    assert pairs.count() == 1
    heading = pairs.first.locator("h2").inner_text()
    assert "ann" in heading and "bob" in heading and "cy" not in heading
    a, b = prof.locator("pre.region-a").first, prof.locator("pre.region-b").first
    assert a.inner_text().strip() and b.inner_text().strip()
    assert a.inner_text() in original  # ann's lines, as she wrote them
    assert b.inner_text() in sources["bob"]
    ba, bb = a.bounding_box(), b.bounding_box()
    assert ba and bb and bb["x"] > ba["x"] + ba["width"] - 1  # side by side, not stacked
    assert abs(ba["y"] - bb["y"]) < 2
    prof.screenshot(path=str(SHOTS / "similarity.png"), full_page=False)

    student = _sign_in(browser, live, tokens["cy"])
    student.goto(f"{live}/similarity/c3a-softmax")
    assert "for instructors" in student.inner_text(".error")
    assert "tl.load" not in student.content()
    prof.goto(f"{live}/similarity/no-such-checkpoint")
    assert prof.locator(".error").count() == 1

"""The similarity page in Chromium: linked from the leaderboard, the pair of a disguised copy
with its shared regions side by side; a student gets the 403 page."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.app.similarity_disguise import disguise, honest_kernels, starter
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


def test_the_summary_table_ranks_the_highest_pairs_without_the_handout(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
) -> None:
    """Issue 31: the page's summary of the highest pairs, the copy first with a link to its
    regions, a resemblance below the threshold marked so, the CSV behind its link; once the
    handout (here ann's kernel) is registered, no row has ann."""
    original = (SOFTMAX / "reference.py").read_text()
    sources = {
        "ann": original,
        "bob": disguise(original, seed=5),
        "fay": honest_kernels("c3a-softmax")["honest/h_lru_cache_params.py"],
        "dee": starter("c3a-softmax"),
        "eve": starter("c3a-softmax"),
    }
    auth = {name: make_user(name) for name in sources}
    for name, src in sources.items():
        body = {"checkpoint": "c3a-softmax", "source": src}
        r = httpx.post(f"{live}/api/submissions", headers=auth[name], json=body)
        assert r.status_code == 201, r.text
    prof_auth = make_user("prof", "instructor")
    prof = _sign_in(browser, live, prof_auth["Authorization"].split()[1])
    prof.goto(f"{live}/similarity/c3a-softmax")
    rows = prof.locator("#similarity-summary tr")
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(1, rows.count())]
    assert [c[1] for c in cells[:2]] == ["ann and bob", "ann and fay"], cells
    assert cells[0][-1] == "regions side by side" and cells[1][-1] == "below the threshold"
    assert not any(c[1] == "dee and eve" for c in cells)  # the starter, subtracted
    prof.screenshot(path=str(SHOTS / "similarity-summary.png"), full_page=False)
    prof.click("#similarity-summary tr.above a:text('regions side by side')")
    prof.wait_for_url("**#pair-*")
    card = prof.locator(f"section.similarity-pair{prof.url[prof.url.index('#') :]}")
    assert "ann" in card.locator("h2").inner_text() and card.is_visible()
    with prof.expect_download() as dl:
        prof.click("#similarity-csv")
    lines = Path(dl.value.path()).read_text().splitlines()
    assert lines[0].startswith("rank,student_a,") and len(lines) == len(cells) + 1
    assert lines[1].split(",")[1::2][:2] == ["ann", "bob"]

    url = f"{live}/api/similarity/c3a-softmax/handouts/lab.py"
    assert httpx.put(url, headers=prof_auth, json={"text": original}).status_code == 200
    prof.goto(f"{live}/similarity/c3a-softmax")
    assert "lab.py" in prof.inner_text("main p.muted")
    names = prof.locator("#similarity-summary tr td:nth-child(2)").all_inner_texts()
    assert not any("ann" in n for n in names), names

    student = _sign_in(browser, live, auth["dee"]["Authorization"].split()[1])
    refused = student.goto(f"{live}/similarity/c3a-softmax/summary.csv")
    assert refused is not None and refused.status == 403
    assert "bob" not in student.content()


def test_an_instructor_registers_and_removes_a_handout_by_the_page_form(  # type: ignore[no-untyped-def]
    live: str,  # noqa: F811
    browser,  # noqa: F811
    make_user,
    tmp_path: Path,
) -> None:
    """Issue 31: a handout was registered as base text only through the API. The page's form
    uploads one (its name from the file, or the one typed), lists it, and removes it; a bad
    name or a file that is not UTF-8 is the page again with the reason, nothing stored; a
    student cannot post it."""
    original = (SOFTMAX / "reference.py").read_text()
    auth = {name: make_user(name) for name in ("ann", "bob")}
    for name, src in (("ann", original), ("bob", disguise(original, seed=5))):
        body = {"checkpoint": "c3a-softmax", "source": src}
        r = httpx.post(f"{live}/api/submissions", headers=auth[name], json=body)
        assert r.status_code == 201, r.text
    prof_auth = make_user("prof", "instructor")
    prof = _sign_in(browser, live, prof_auth["Authorization"].split()[1])
    listed = f"{live}/api/similarity/c3a-softmax/handouts"

    def summary() -> list[str]:
        return prof.locator("#similarity-summary tr td:nth-child(2)").all_inner_texts()

    prof.goto(f"{live}/similarity/c3a-softmax")
    assert summary() == ["ann and bob"]
    assert "No handout" in prof.inner_text("#handouts")
    lab = tmp_path / "lab_a1.py"
    lab.write_text(original)
    prof.set_input_files("#handout-file", str(lab))
    prof.click("#handout-form button[type=submit]")
    prof.wait_for_selector("#handouts li")
    assert prof.url.startswith(f"{live}/similarity/c3a-softmax")
    assert prof.locator("#handouts li").all_inner_texts()[0].startswith("lab_a1.py")
    assert httpx.get(listed, headers=prof_auth).json()["handouts"] == ["lab_a1.py"]
    assert summary() == []  # the kernel both began from is base text now
    prof.screenshot(path=str(SHOTS / "similarity-handouts.png"), full_page=True)

    prof.fill("#handout-name", ".hidden")  # a bad name: the reason, nothing stored
    prof.set_input_files("#handout-file", str(lab))
    prof.click("#handout-form button[type=submit]")
    assert "name" in prof.inner_text(".error")
    bad = tmp_path / "notes.py"
    bad.write_bytes(b"\xff\xfe")
    prof.fill("#handout-name", "")
    prof.set_input_files("#handout-file", str(bad))
    prof.click("#handout-form button[type=submit]")
    assert "UTF-8" in prof.inner_text(".error")
    assert httpx.get(listed, headers=prof_auth).json()["handouts"] == ["lab_a1.py"]

    student = _sign_in(browser, live, auth["ann"]["Authorization"].split()[1])
    refused = student.request.post(
        f"{live}/similarity/c3a-softmax/handouts/lab_a1.py/remove", form={"csrf": "x"}
    )
    assert refused.status == 403
    assert httpx.get(listed, headers=prof_auth).json()["handouts"] == ["lab_a1.py"]

    prof.goto(f"{live}/similarity/c3a-softmax")
    prof.click("#handouts li button:text('Remove')")
    prof.wait_for_selector("#handouts:not(:has(li))")
    assert httpx.get(listed, headers=prof_auth).json()["handouts"] == []
    assert summary() == ["ann and bob"]

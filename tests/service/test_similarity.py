"""The similarity report through the API, on PostgreSQL: real submissions (posted as students
post them) of the repository's kernels, a disguised copy among them; instructors only."""

from __future__ import annotations

import json

import httpx
from fastapi.testclient import TestClient

from tests.app.similarity_disguise import disguise, folder, honest_kernels, starter
from tests.service.test_cli_course import kgrade, server  # noqa: F401  (server: a fixture)

CK = "c3a-softmax"


def _submit(client: TestClient, who: dict[str, str], source: str) -> int:
    r = client.post("/api/submissions", headers=who, json={"checkpoint": CK, "source": source})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def course(client: TestClient, make_user) -> tuple[dict[str, int], dict[str, str]]:  # type: ignore[no-untyped-def]
    """ann submits the reference, bob a renamed and reformatted copy of it, cy an independent
    honest kernel, dee and eve the starter as it is. Submission ids and sources by student."""
    original = (folder(CK) / "reference.py").read_text()
    others = [src for name, src in honest_kernels(CK).items() if name != "reference.py"]
    sources = {
        "ann": original,
        "bob": disguise(original, seed=3),
        "cy": others[0],
        "dee": starter(CK),
        "eve": starter(CK),
    }
    return {n: _submit(client, make_user(n), src) for n, src in sources.items()}, sources


def test_a_disguised_copy_is_the_one_pair_with_its_regions(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    ids, sources = course(client, make_user)
    r = client.get(f"/api/similarity/{CK}", headers=prof)
    assert r.status_code == 200, r.text
    report = r.json()
    assert (report["students"], report["submissions"]) == (5, 5)
    assert report["threshold"] == 0.7
    (pair,) = report["pairs"]  # not cy's honest kernel, not the starter submitted twice
    assert {pair["a"]["student"], pair["b"]["student"]} == {"ann", "bob"}
    assert {pair["a"]["submission_id"], pair["b"]["submission_id"]} == {ids["ann"], ids["bob"]}
    assert pair["score"] >= 0.7 and pair["regions"]
    for g in pair["regions"]:
        for side in ("a", "b"):
            lines, text = g[f"{side}_lines"], g[f"{side}_text"]
            src = sources[pair[side]["student"]].splitlines()
            assert 1 <= lines[0] <= lines[1] <= len(src)
            assert text == "\n".join(src[lines[0] - 1 : lines[1]])
    # the regions cover the kernel: most of the smaller side's lines are in some region
    covered = {n for g in pair["regions"] for n in range(g["a_lines"][0], g["a_lines"][1] + 1)}
    assert len(covered) >= 10


def test_no_submissions_no_pairs(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    report = client.get(f"/api/similarity/{CK}", headers=prof).json()
    assert (report["students"], report["pairs"], report["skipped"]) == (0, [], [])


def test_a_source_that_does_not_tokenize_is_listed(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    sid = _submit(client, make_user("ann"), "def f(:\n    x = (\n")  # admitted, graded later
    report = client.get(f"/api/similarity/{CK}", headers=prof).json()
    (skipped,) = report["skipped"]
    assert (skipped["student"], skipped["submission_id"]) == ("ann", sid)
    assert skipped["reason"] and report["submissions"] == 0


def test_students_get_403_an_unknown_checkpoint_404(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann, prof = make_user("ann"), make_user("prof", "instructor")
    r = client.get(f"/api/similarity/{CK}", headers=ann)
    assert r.status_code == 403 and "instructor" in r.json()["error"]
    r = client.get("/api/similarity/no-such-checkpoint", headers=prof)
    assert r.status_code == 404 and r.json()["error"]
    assert client.get(f"/api/similarity/{CK}").status_code == 401


def test_the_cli_prints_the_pair_and_refuses_a_student(  # type: ignore[no-untyped-def]
    server: str,  # noqa: F811 (the imported fixture)
    make_user,
) -> None:
    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    original = (folder(CK) / "reference.py").read_text()
    for name, src in (("ann", original), ("bob", disguise(original, seed=3))):
        who = make_user(name)
        body = {"checkpoint": CK, "source": src}
        r = httpx.post(f"{server}/api/submissions", headers=who, json=body)
        assert r.status_code == 201, r.text
    out = kgrade(server, prof, "similarity", CK, "--show")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"{CK}: 2 submissions by 2 students, 1 pair at or above 70%"
    assert "ann (#1) and bob (#2)" in lines[1]
    assert any(" | " in ln and "tl.load" in ln for ln in lines)  # the regions side by side
    as_json = json.loads(kgrade(server, prof, "similarity", CK, "--json").stdout)
    assert len(as_json["pairs"]) == 1
    student = make_user("cy")["Authorization"].split()[1]
    refused = kgrade(server, student, "similarity", CK)
    assert refused.returncode == 2 and "HTTP 403" in refused.stderr
    unknown = kgrade(server, prof, "similarity", "nope")
    assert unknown.returncode == 2 and "HTTP 404" in unknown.stderr


def test_a_registered_handout_is_subtracted_like_the_starter(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    """Issue 31: a class that all began from the course's handout was paired by it, with no way
    to register it as base text. Here the handout is the kernel ann submitted and bob disguised:
    registered, their pair is gone; removed, it is back."""
    prof = make_user("prof", "instructor")
    course(client, make_user)
    handout = (folder(CK) / "reference.py").read_text()
    url = f"/api/similarity/{CK}/handouts/lab.py"
    assert client.put(url, headers=make_user("zed"), json={"text": handout}).status_code == 403
    r = client.put(url, headers=prof, json={"text": handout})
    assert r.status_code == 200 and r.json()["handouts"] == ["lab.py"], r.text
    assert client.get(f"/api/similarity/{CK}/handouts", headers=prof).json()["handouts"] == [
        "lab.py"
    ]
    assert client.get(f"/api/similarity/{CK}", headers=prof).json()["pairs"] == []
    bad = client.put(f"/api/similarity/{CK}/handouts/.hidden", headers=prof, json={"text": "x"})
    assert bad.status_code == 400 and "name" in bad.json()["error"], bad.text
    assert client.delete(url, headers=prof).json()["handouts"] == []
    (pair,) = client.get(f"/api/similarity/{CK}", headers=prof).json()["pairs"]
    assert {pair["a"]["student"], pair["b"]["student"]} == {"ann", "bob"}


def test_the_summary_lists_the_highest_pairs_with_the_base_text_subtracted(  # type: ignore[no-untyped-def]
    client: TestClient, make_user
) -> None:
    """Issue 31: a summary of the highest pairs, not only those at or above the threshold: the
    copy first, then fay's kernel (which resembles ann's less than a copy does, at 57 %),
    marked below the threshold; never the starter submitted twice. The same rows as JSON (the
    report's `summary`) and as CSV; with the handout (ann's kernel) registered, no row has ann."""
    prof = make_user("prof", "instructor")
    ids, _ = course(client, make_user)
    fay = _submit(client, make_user("fay"), honest_kernels(CK)["honest/h_lru_cache_params.py"])
    report = client.get(f"/api/similarity/{CK}", headers=prof).json()
    assert report["summary_floor"] == 0.5
    rows = report["summary"]
    assert [(r["rank"], r["a"], r["b"], r["above_threshold"]) for r in rows[:2]] == [
        (1, "ann", "bob", True),
        (2, "ann", "fay", False),
    ], rows
    assert (rows[1]["a_submission"], rows[1]["b_submission"]) == (ids["ann"], fay)
    assert 0.5 <= rows[1]["score"] < 0.7 <= rows[0]["score"]
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert all(r["score"] >= 0.5 and r["above_threshold"] == (r["score"] >= 0.7) for r in rows)
    assert not any({"dee", "eve"} <= {r["a"], r["b"]} for r in rows)  # the starter twice
    assert len(report["pairs"]) == 1  # the cards: only the pairs at or above the threshold

    csv = client.get(f"/api/similarity/{CK}/summary.csv", headers=prof)
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    lines = csv.text.splitlines()
    assert lines[0] == (
        "rank,student_a,submission_a,student_b,submission_b,score,jaccard,shared,regions,"
        "above_threshold"
    )
    assert lines[1].startswith(f"1,ann,{ids['ann']},bob,{ids['bob']},")
    assert lines[1].endswith(",yes") and lines[2].endswith(",no")
    assert len(lines) == 1 + len(rows)
    student = client.get(f"/api/similarity/{CK}/summary.csv", headers=make_user("zed"))
    assert student.status_code == 403
    assert client.get("/api/similarity/nope/summary.csv", headers=prof).status_code == 404

    handout = (folder(CK) / "reference.py").read_text()
    client.put(f"/api/similarity/{CK}/handouts/lab.py", headers=prof, json={"text": handout})
    after = client.get(f"/api/similarity/{CK}", headers=prof).json()["summary"]
    assert not any("ann" in (r["a"], r["b"]) for r in after), after


def test_the_cli_prints_the_summary_and_its_csv(  # type: ignore[no-untyped-def]
    server: str,  # noqa: F811 (the imported fixture)
    make_user,
) -> None:
    """Issue 31: `kgrade similarity` says the summary's pairs below the threshold too (marked),
    and `--csv` prints the summary as the API's CSV."""
    prof = make_user("prof", "instructor")["Authorization"].split()[1]
    original = (folder(CK) / "reference.py").read_text()
    sources = (
        ("ann", original),
        ("bob", disguise(original, seed=3)),
        ("fay", honest_kernels(CK)["honest/h_lru_cache_params.py"]),
    )
    for name, src in sources:
        body = {"checkpoint": CK, "source": src}
        r = httpx.post(f"{server}/api/submissions", headers=make_user(name), json=body)
        assert r.status_code == 201, r.text
    out = kgrade(server, prof, "similarity", CK)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    at = lines.index("below the threshold (down to 50%), highest first:")
    assert "ann (#1) and fay (#3)" in lines[at + 1]
    assert all("and bob (#2)" not in ln or "fay" in ln for ln in lines[at:])  # the copy: above
    csv = kgrade(server, prof, "similarity", CK, "--csv")
    assert csv.returncode == 0, csv.stderr
    rows = csv.stdout.splitlines()
    assert rows[0].startswith("rank,student_a,submission_a,student_b,submission_b,score,")
    assert rows[1].startswith("1,ann,1,bob,2,") and rows[2].startswith("2,ann,1,fay,3,")

"""An override said the same everywhere: the JSON (the submission, a history line, the board),
the CLI (`kgrade status`, `kgrade history`) and the pages (the submission, the board) give the
level in force, the grader's level and the override's author, time and note; level 4 only on
top of a level-3 result."""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form, stored
from tests.service.test_cli_course import kgrade, server  # noqa: F401  (the fixture)

CRASHED = {
    "checkpoint": "c3a-softmax",
    "device": "cpu",
    "verdict": "runtime_error",
    "level": 1,
    "messages": ["Level 1 (runtime_error): it crashed"],
}
NOTE = "the crash was the grader's: a driver reset on that host"


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def test_level_4_only_on_top_of_a_level_3_result(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    make_user("ann")
    prof = make_user("prof", "instructor")
    crashed = stored("ann", CRASHED)
    r = client.post(
        f"/api/submissions/{crashed}/override", headers=prof, json={"level": 4, "note": "great"}
    )
    assert r.status_code == 409 and "graded level 1" in r.json()["error"]
    assert client.get(f"/api/submissions/{crashed}", headers=prof).json()["level"] == 1
    # raised to 3 by hand, it is still a level-1 result: no level 4 on top of it
    up = client.post(
        f"/api/submissions/{crashed}/override", headers=prof, json={"level": 3, "note": NOTE}
    )
    assert up.status_code == 200
    again = client.post(
        f"/api/submissions/{crashed}/override", headers=prof, json={"level": 4, "note": "x"}
    )
    assert again.status_code == 409
    three = stored("ann", {**CRASHED, "verdict": "correct", "level": 3})
    ok = client.post(
        f"/api/submissions/{three}/override", headers=prof, json={"level": 4, "note": "merged PR"}
    )
    assert ok.status_code == 200 and ok.json()["level"] == 4


def test_an_override_reads_the_same_in_the_json_the_cli_and_the_pages(  # type: ignore[no-untyped-def]
    server: str,  # noqa: F811
    client: TestClient,
    make_user,
) -> None:
    ann_h, prof_h = make_user("ann"), make_user("prof", "instructor")
    ann, prof = _token(ann_h), _token(prof_h)
    sid = stored("ann", CRASHED)
    r = client.post(
        f"/api/submissions/{sid}/override", headers=prof_h, json={"level": 2, "note": NOTE}
    )
    assert r.status_code == 200, r.text

    sub = client.get(f"/api/submissions/{sid}", headers=ann_h).json()
    assert (sub["level"], sub["graded_level"], sub["result"]["level"]) == (2, 1, 1)
    o = sub["override"]
    assert (o["by"], o["note"], o["old_level"], o["new_level"]) == ("prof", NOTE, 1, 2)
    when = o["at"][:16].replace("T", " ")
    [row] = client.get("/api/submissions", headers=ann_h).json()
    assert (row["level"], row["graded_level"], row["override"]) == (2, 1, o)
    [entry] = client.get("/api/leaderboard/c3a-softmax", headers=prof_h).json()["boards"]["cpu"]
    assert (entry["level"], entry["graded_level"], entry["override"]) == (2, 1, o)
    csv = client.get("/api/export/c3a-softmax.csv", headers=prof_h).text.splitlines()
    header, [line] = csv[0].split(","), [r for r in csv[1:] if r.startswith("ann,")]
    assert line.split(",")[header.index("best_level")] == "2", csv

    status = kgrade(server, ann, "status", str(sid))
    assert status.returncode == 0, status.stderr
    first = status.stdout.splitlines()[0]
    assert first == (
        f'Level 2, set by prof on {when} UTC: "{NOTE}". '
        "The grader gave this result level 1; its report follows."
    )
    for who in (ann, prof):
        line = kgrade(server, who, "history").stdout.strip()
        assert "level 2 (set by prof; graded 1)" in line, line

    for headers in (ann_h, prof_h):
        client.cookies.clear()
        signin = client.post(
            "/signin", data=signin_form(client, {"token": _token(headers)}), follow_redirects=False
        )
        assert signin.status_code == 303
        page = html.unescape(client.get(f"/submissions/{sid}").text)
        assert 'data-level="2"' in page and "Level 2, set by prof" in page
        assert f"{when} UTC" in page and NOTE in page and "gave this result level 1" in page
        listed = html.unescape(client.get("/history").text)
        assert f"set by prof, {when} UTC (graded 1): {NOTE}" in listed
    home = html.unescape(client.get("/").text)  # prof has none; ann's home says it
    assert NOTE not in home
    client.cookies.clear()
    client.post("/signin", data=signin_form(client, {"token": ann}), follow_redirects=False)
    home = html.unescape(client.get("/").text)
    assert f"level 2 set by prof on {when} UTC (graded 1): “{NOTE}”" in home
    client.cookies.clear()
    client.post("/signin", data=signin_form(client, {"token": prof}), follow_redirects=False)
    board = html.unescape(client.get("/leaderboard/c3a-softmax").text)  # prof's session
    assert f"set by prof, {when} UTC (graded 1): {NOTE}" in board

"""The small items on the pages: a crash shown once in the case table; the submit page never
fills its textarea with a file it refused."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.service.conftest import signin_form, stored

ROOT = Path(__file__).resolve().parents[2]


def _signed_in(client: TestClient, headers: dict[str, str]) -> str:
    token = headers["Authorization"].split()[1]
    client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/submit").text)
    assert m
    return m.group(1)


def test_a_crash_is_one_row_and_the_rest_never_ran(
    client: TestClient, make_user, grade_fixture
) -> None:  # type: ignore[no-untyped-def]
    result = grade_fixture("segfault_store.py")
    headers = make_user("ann")
    sid = stored("ann", result.model_dump(mode="json"))
    _signed_in(client, headers)
    page = client.get(f"/submissions/{sid}").text
    cells = re.findall(r'<td class="(?:pass|fail|muted)">([^<]*)</td>', page)
    assert cells == ["crashed"] + ["not run"] * 6, cells
    assert "wrong</td>" not in page


def test_a_refused_file_is_not_put_back_in_the_textarea(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    csrf = _signed_in(client, make_user("ann"))
    big = "# " + "x" * (300 * 1024) + "\n"
    typed = "# what I typed\n"
    r = client.post(
        "/submit",
        data={"checkpoint": "c3a-softmax", "csrf": csrf, "source": typed},
        files={"upload": ("big.py", big.encode(), "text/x-python")},
    )
    assert r.status_code == 413 and "256 KiB" in r.text
    assert "x" * 1000 not in r.text and len(r.text) < 100_000
    assert typed in r.text  # what the textarea held stays
    r = client.post("/submit", data={"checkpoint": "c3a-softmax", "csrf": csrf, "source": big})
    assert r.status_code == 413 and "x" * 1000 not in r.text
    bad = client.post(
        "/submit",
        data={"checkpoint": "c3a-softmax", "csrf": csrf, "source": typed},
        files={"upload": ("latin.py", b"x = '\xe9'\n", "text/x-python")},
    )
    assert bad.status_code == 400 and "not UTF-8" in bad.text and typed in bad.text


def test_the_accounts_page_imports_a_roster_and_lists_each_bad_line(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    csrf = _signed_in(client, make_user("prof", "instructor"))
    ok = client.post(
        "/users/import",
        data={"csrf": csrf},
        files={"roster_file": ("cs101.csv", b"name,section\nann,A\nbob,B\n", "text/csv")},
    )
    assert ok.status_code == 200, ok.text[-500:]
    links = re.findall(
        r'<code class="invite" data-user="(\w+)">(http://testserver/invite/[\w-]+)</code>', ok.text
    )
    assert [u for u, _ in links] == ["ann", "bob"]
    listed = client.get("/users?section=B").text
    assert 'data-user="bob"' in listed and 'data-user="ann"' not in listed
    bad = client.post("/users/import", data={"csrf": csrf, "text": "name,role\nann,boss\n"})
    assert bad.status_code == 400
    assert "cs101" not in bad.text and "roster.csv: 1 problem, nothing imported" in bad.text
    assert "line 2: unknown role &#39;boss&#39;" in bad.text
    gone = client.post("/users/bob/disable", data={"csrf": csrf}, follow_redirects=False)
    assert gone.status_code == 303
    assert re.search(r'data-user="bob">.*?<td>disabled</td>', client.get("/users").text, re.S)
    student = TestClient(client.app)
    _signed_in(student, make_user("zed"))
    assert student.get("/users").status_code == 403

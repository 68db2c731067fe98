"""Accounts against PostgreSQL and Redis: a roster import (API), invite links, passwords,
sign-in and its limits, disable/enable/reset, named tokens, sections."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.service.conftest import signin_form

ROSTER = "name,email,role,section\nann,Ann@Example.edu,,A\nbob,bob@example.edu,student,B\ncy,,,\n"
PASSWORD = "correct horse battery"


def _count(model: type) -> int:
    from app.db import sessions

    with sessions()() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def _import(client: TestClient, headers: dict[str, str], text: str = ROSTER) -> dict:  # type: ignore[type-arg]
    r = client.post("/api/users/import", headers=headers, json={"csv": text})
    assert r.status_code == 200, r.text
    return r.json()


def _token_of(url: str) -> str:
    m = re.search(r"/invite/([A-Za-z0-9_-]+)$", url)
    assert m, url
    return m.group(1)


def _set_password(client: TestClient, url: str, password: str = PASSWORD) -> object:
    path = "/invite/" + _token_of(url)
    return client.post(
        path, data={"password": password, "confirm": password}, follow_redirects=False
    )


def _sign_in(client: TestClient, login: str, password: str = PASSWORD) -> object:
    return client.post(
        "/signin",
        data=signin_form(client, {"login": login, "password": password}),
        follow_redirects=False,
    )


def test_a_roster_makes_accounts_with_one_time_links_and_reimporting_changes_nothing_twice(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    from app.models import Invite, User

    prof = make_user("prof", "instructor")
    out = _import(client, prof)
    assert (out["created"], out["updated"], out["unchanged"]) == (3, 0, 0)
    links = {r["name"]: r["invite_url"] for r in out["rows"]}
    assert all(u and u.startswith("http://testserver/invite/") for u in links.values())
    assert len(set(links.values())) == 3 and [r["line"] for r in out["rows"]] == [2, 3, 4]
    listed = client.get("/api/users", headers=prof).json()
    ann = next(u for u in listed if u["name"] == "ann")
    assert (ann["email"], ann["section"], ann["state"], ann["tokens"]) == (
        "ann@example.edu",
        "A",
        "invited",
        0,
    )
    # stored only as hashes
    from app.db import sessions

    with sessions()() as s:
        hashes = set(s.scalars(select(Invite.token_hash)))
    assert all(_token_of(u) not in hashes and len(h) == 64 for u in links.values() for h in hashes)
    # again, with bob moved to section A: nobody twice, no new link
    again = _import(client, prof, ROSTER.replace("student,B", "student,A"))
    assert (again["created"], again["updated"], again["unchanged"]) == (0, 1, 2)
    assert all(r["invite_url"] is None for r in again["rows"])
    assert "section B → A" in next(r for r in again["rows"] if r["name"] == "bob")["notes"]
    assert _count(User) == 4 and _count(Invite) == 3
    # the section filter
    assert [u["name"] for u in client.get("/api/users?section=A", headers=prof).json()] == [
        "ann",
        "bob",
    ]


def test_every_bad_row_is_named_by_its_line_and_nothing_is_imported(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    from app.models import User

    prof = make_user("prof", "instructor")
    make_user("dee")
    client.post("/api/users/import", headers=prof, json={"csv": "name,email\ndee,dee@x.edu\n"})
    bad = (
        "name,email,role,section\n"
        "ann,ann@example.edu,,A\n"  # fine
        ",x@example.edu,,A\n"  # line 3: no name
        "bob,not-an-email,,A\n"  # line 4
        "cy,,professor,A\n"  # line 5
        "ann,,,B\n"  # line 6: ann again
        "eve,dee@x.edu,,A\n"  # line 7: dee's email
        "fay,,admin,A\n"  # line 8: an instructor makes no admin
        "gus,a@b.c,,A,extra\n"  # line 9
    )
    r = client.post("/api/users/import", headers=prof, json={"csv": bad, "filename": "cs101.csv"})
    assert r.status_code == 400, r.text
    problems = r.json()["problems"]
    assert [p.split(":")[0] for p in problems] == [f"line {n}" for n in (3, 4, 5, 6, 7, 8, 9)]
    assert "'not-an-email' is not an email address" in problems[1]
    assert "unknown role 'professor'" in problems[2]
    assert "name 'ann' is on line 2 too" in problems[3]
    assert "belongs to 'dee'" in problems[4] and "only an admin makes admin" in problems[5]
    assert "2 fields" not in problems[6] and "5 fields, the header has 4" in problems[6]
    assert r.json()["error"].startswith("cs101.csv: 7 problems, nothing imported: line 3")
    assert _count(User) == 2  # prof and dee: not ann, though her row was fine
    header = client.post("/api/users/import", headers=prof, json={"csv": "login,mail\nann,x\n"})
    assert header.status_code == 400
    assert header.json()["problems"][0].startswith("line 1: unknown columns 'login', 'mail'")
    student = client.post("/api/users/import", headers=make_user("zed"), json={"csv": ROSTER})
    assert student.status_code == 403


def test_an_invite_sets_a_password_once_then_name_or_email_and_password_sign_in(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    from app.models import User

    links = {
        r["name"]: r["invite_url"] for r in _import(client, make_user("prof", "instructor"))["rows"]
    }
    page = client.get("/invite/" + _token_of(links["ann"]))
    assert page.status_code == 200 and "Welcome, ann" in page.text
    for password, confirm, words in (
        ("short", "short", "at least 10"),
        (PASSWORD, PASSWORD + "x", "differ"),
        ("ann@example.edu", "ann@example.edu", "not your name or your email"),
    ):
        r = client.post(
            "/invite/" + _token_of(links["ann"]), data={"password": password, "confirm": confirm}
        )
        assert r.status_code == 400 and words in r.text, (words, r.text[-500:])
    done = _set_password(client, links["ann"])
    assert done.status_code == 303 and done.headers["location"] == "/"  # signed in, home
    from app.db import sessions

    with sessions()() as s:
        stored = s.scalar(select(User.password_hash).where(User.name == "ann"))
    assert stored and stored.startswith("$argon2id$") and PASSWORD not in stored
    used = client.get("/invite/" + _token_of(links["ann"]))
    assert used.status_code == 404 and "used already" in used.text
    assert _set_password(client, links["ann"]).status_code == 404  # once only
    fresh = TestClient(client.app)
    assert _sign_in(fresh, "ann").status_code == 303
    assert fresh.get("/", follow_redirects=False).status_code == 200  # the session works
    assert _sign_in(TestClient(client.app), "ANN@example.edu").status_code == 303
    wrong = _sign_in(TestClient(client.app), "ann", "not the password")
    assert wrong.status_code == 401 and "do not match" in wrong.text
    nobody = _sign_in(TestClient(client.app), "nobody", PASSWORD)
    assert nobody.status_code == 401 and "do not match" in nobody.text  # reads the same


def test_an_invite_expires(client: TestClient, make_user, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.db import transaction
    from app.models import Invite, now

    links = {
        r["name"]: r["invite_url"] for r in _import(client, make_user("prof", "instructor"))["rows"]
    }
    with transaction() as s:
        for invite in s.scalars(select(Invite)):
            invite.expires_at = now() - timedelta(seconds=1)
    r = client.get("/invite/" + _token_of(links["bob"]))
    assert r.status_code == 404 and "expired" in r.text
    assert _set_password(client, links["bob"]).status_code == 404
    assert client.get("/invite/not-a-token").status_code == 404


def test_failed_sign_ins_are_limited_per_account_and_per_address(
    client: TestClient, make_user, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    monkeypatch.setenv("KGRADE_SIGNIN_FAILURES_PER_ACCOUNT", "3")
    monkeypatch.setenv("KGRADE_SIGNIN_FAILURES_PER_ADDRESS", "5")
    get_settings.cache_clear()
    links = {
        r["name"]: r["invite_url"] for r in _import(client, make_user("prof", "instructor"))["rows"]
    }
    _set_password(client, links["ann"])
    for _ in range(3):
        assert _sign_in(TestClient(client.app), "ann", "guess guess guess").status_code == 401
    locked = _sign_in(TestClient(client.app), "ann")  # even the right password, for now
    assert locked.status_code == 429
    # the same words for an account's limit and an address's, a known name and an unknown one
    assert "too many failed sign-ins: try again in 15 minutes" in locked.text
    for _ in range(2):  # 5 from this address in all
        assert _sign_in(TestClient(client.app), "nobody", "x" * 12).status_code == 401
    _set_password(client, links["bob"])
    blocked = _sign_in(TestClient(client.app), "bob")
    assert blocked.status_code == 429 and "too many failed sign-ins" in blocked.text
    # once the window has passed, the account and the address may try again
    from app.db import transaction
    from app.models import SigninFailure

    with transaction() as s:
        for f in s.scalars(select(SigninFailure)):
            f.at = f.at - timedelta(minutes=16)
    assert _sign_in(TestClient(client.app), "ann").status_code == 303


def test_disabled_users_can_neither_sign_in_nor_use_a_token_nor_a_session(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    ann_token = make_user("ann")
    links = {r["name"]: r["invite_url"] for r in _import(client, prof, "name\nbob\n")["rows"]}
    bob = TestClient(client.app)
    _set_password(bob, links["bob"])
    assert bob.get("/", follow_redirects=False).status_code == 200
    for name in ("ann", "bob"):
        r = client.post(f"/api/users/{name}/disable", headers=prof)
        assert r.status_code == 200 and r.json()["state"] == "disabled"
    r = client.get("/api/submissions", headers=ann_token)
    assert r.status_code == 401 and "disabled" in r.json()["error"]
    assert bob.get("/", follow_redirects=False).headers["location"] == "/signin"  # session ended
    refused = _sign_in(TestClient(client.app), "bob")
    assert refused.status_code == 403 and "disabled" in refused.text
    fresh = TestClient(client.app)
    token = ann_token["Authorization"].split()[1]
    token_page = fresh.post(
        "/signin", data=signin_form(fresh, {"token": token}), follow_redirects=False
    )
    assert token_page.status_code == 401
    assert client.post("/api/users/ann/enable", headers=prof).json()["state"] == "active"
    assert client.get("/api/submissions", headers=ann_token).status_code == 200
    # who may manage whom
    assert client.post("/api/users/prof/disable", headers=prof).status_code == 409  # oneself
    other = make_user("tia", "instructor")
    assert client.post("/api/users/prof/disable", headers=other).status_code == 403
    assert client.post("/api/users/nobody/disable", headers=prof).status_code == 404
    assert client.post("/api/users/bob/enable", headers=ann_token).status_code == 403
    root = make_user("root", "admin")
    assert client.post("/api/users/tia/disable", headers=root).status_code == 200


def test_a_reset_revokes_password_tokens_and_sessions_and_gives_a_new_link(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    links = {r["name"]: r["invite_url"] for r in _import(client, prof)["rows"]}
    ann = TestClient(client.app)
    _set_password(ann, links["ann"])
    made = ann.post("/account/tokens", data={"csrf": _csrf(ann), "name": "laptop"})
    token = re.search(r"<pre class=\"explanation\" data-token>([^<]+)</pre>", made.text)
    assert token, made.text[-800:]
    headers = {"Authorization": f"Bearer {token.group(1)}"}
    assert client.get("/api/users/me", headers=headers).json()["name"] == "ann"
    r = client.post("/api/users/ann/reset", headers=prof)
    assert r.status_code == 200 and r.json()["invite_url"] != links["ann"]
    assert client.get("/api/users/me", headers=headers).status_code == 401  # token revoked
    assert ann.get("/", follow_redirects=False).headers["location"] == "/signin"  # session ended
    assert _sign_in(TestClient(client.app), "ann").status_code == 401  # old password gone
    assert (
        _set_password(TestClient(client.app), r.json()["invite_url"], "a new password!").status_code
        == 303
    )
    assert _sign_in(TestClient(client.app), "ann", "a new password!").status_code == 303


def _csrf(c: TestClient) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', c.get("/account").text)
    assert m
    return m.group(1)


def test_named_tokens_are_made_and_revoked_by_their_owner(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    assert [t["name"] for t in client.get("/api/tokens", headers=ann).json()] == ["cli"]
    made = client.post("/api/tokens", headers=ann, json={"name": "laptop"})
    assert made.status_code == 201
    second = {"Authorization": f"Bearer {made.json()['token']}"}
    assert client.get("/api/users/me", headers=second).json()["name"] == "ann"
    assert client.post("/api/tokens", headers=ann, json={"name": "laptop"}).status_code == 409
    bob = make_user("bob")
    assert client.delete(f"/api/tokens/{made.json()['id']}", headers=bob).status_code == 404
    assert client.delete(f"/api/tokens/{made.json()['id']}", headers=second).status_code == 200
    assert client.get("/api/users/me", headers=second).status_code == 401
    assert client.get("/api/users/me", headers=ann).status_code == 200  # the other one stays
    assert [t["name"] for t in client.get("/api/tokens", headers=ann).json()] == ["cli"]


@pytest.mark.parametrize("role", ["student", "instructor"])
def test_sign_in_lands_on_the_home_page(client: TestClient, make_user, role: str) -> None:  # type: ignore[no-untyped-def]
    token = make_user("ann", role)["Authorization"].split()[1]
    r = client.post("/signin", data=signin_form(client, {"token": token}), follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (303, "/")
    assert "Hello, ann" in client.get("/").text


def test_an_instructors_roster_changes_students_only(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    make_user("tia", "instructor")
    r = client.post("/api/users/import", headers=prof, json={"csv": "name,section\nann,A\ntia,B\n"})
    assert r.status_code == 400
    assert r.json()["problems"] == ["line 3: 'tia' is an instructor's account; an admin changes it"]
    root = make_user("root", "admin")
    assert _import(client, root, "name,section\nann,A\ntia,B\n")["updated"] == 1
    bad = client.post("/api/users/import", headers=root, json={"csv": "name\nann/bob\n"})
    assert bad.status_code == 400 and "no '/'" in bad.json()["problems"][0]


def test_the_users_list_filters_refuse_unknown_roles_and_nul_with_422(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    prof = make_user("prof", "instructor")
    _import(client, prof)
    by_role = client.get("/api/users", headers=prof, params={"role": "student", "section": "A"})
    assert [u["name"] for u in by_role.json()] == ["ann"]
    for params in ({"role": "teacher"}, {"role": "student\x00"}, {"section": "A\x00"}):
        r = client.get("/api/users", headers=prof, params=params)
        assert r.status_code == 422, (params, r.status_code, r.text)


def test_sign_in_names_are_case_insensitive_and_names_unique_by_case(
    client: TestClient, make_user
) -> None:  # type: ignore[no-untyped-def]
    """Issue 31: 'Ann' signing in as 'ann' was refused; a second account 'ANN' beside 'ann'
    would make the name ambiguous, so it is refused where names are made."""
    links = {
        r["name"]: r["invite_url"] for r in _import(client, make_user("prof", "instructor"))["rows"]
    }
    _set_password(client, links["ann"])
    for login in ("Ann", " ANN ", "ann"):
        assert _sign_in(TestClient(client.app), login).status_code == 303, login
    from app.core.errors import Conflict
    from app.db import sessions
    from app.users import service

    with sessions()() as s, pytest.raises(Conflict, match="exists already"):
        service.add(s, "ANN", "student")  # as `kgrade users add` does
    admin = make_user("root", "admin")
    again = client.post("/api/users/import", headers=admin, json={"csv": "name\nAnn\n"})
    assert again.status_code == 200, again.text
    assert again.json()["created"] == 0  # the roster's 'Ann' is the account 'ann'

"""Sessions that end, and the pages' other defences: signing out ends the session on the
server (a saved cookie is then worth nothing); the cookie is Secure over HTTPS and beyond
loopback; every response carries a CSP with frame-ancestors 'none', nosniff and a
Referrer-Policy; sign-in and sign-out need their CSRF token; `back` stays on this site."""

# ruff: noqa: F811  (the service fixtures, imported)
from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.security.pages import form_csrf, graded, sign_in
from tests.service.conftest import client, make_user, pg_url, service_env  # noqa: F401


def _app():  # type: ignore[no-untyped-def]
    from app.main import create_app

    return create_app()


def test_signing_out_ends_the_session_for_a_saved_cookie(service_env, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    browser = TestClient(_app(), follow_redirects=False)
    csrf = sign_in(browser, ann)
    saved = browser.cookies.get("kgrade_session")
    assert saved
    out = browser.post("/signout", data={"csrf": csrf})
    assert (out.status_code, out.headers["location"]) == (303, "/signin")
    thief = TestClient(_app(), follow_redirects=False, cookies={"kgrade_session": saved})
    r = thief.get("/history")
    assert (r.status_code, r.headers.get("location")) == (303, "/signin"), r.text[:300]


def test_sign_in_and_sign_out_need_their_csrf_token(service_env, make_user) -> None:  # type: ignore[no-untyped-def]
    ann = make_user("ann")
    token = ann["Authorization"].split()[1]
    browser = TestClient(_app(), follow_redirects=False)
    forged = browser.post("/signin", data={"token": token})  # a form posted from elsewhere
    assert forged.status_code == 403
    assert browser.get("/history").status_code == 303  # not signed in
    csrf = sign_in(browser, ann)
    assert browser.post("/signout", data={}).status_code == 403
    assert browser.post("/signout", data={"csrf": "guess"}).status_code == 403
    assert browser.get("/history").status_code == 200  # still signed in
    assert browser.post("/signout", data={"csrf": csrf}).status_code == 303


@pytest.mark.parametrize(
    ("env", "base", "secure"),
    [
        ({}, "http://127.0.0.1", False),
        ({}, "https://grader.example.edu", True),
        ({"KGRADE_HOST": "0.0.0.0"}, "http://grader.example.edu", True),
        ({"KGRADE_SECURE_COOKIES": "false"}, "https://grader.example.edu", False),
    ],
)
def test_the_cookie_is_secure_over_https_and_beyond_loopback(
    service_env,
    make_user,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    base: str,
    secure: bool,
) -> None:  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    for k, v in env.items():
        monkeypatch.setenv(k, v)
    get_settings.cache_clear()
    browser = TestClient(_app(), base_url=base, follow_redirects=False)
    page = browser.get("/signin")  # the sign-in form's cookie
    assert ("secure" in page.headers["set-cookie"].lower()) is secure, page.headers["set-cookie"]
    if secure and base.startswith("http:"):
        return  # a browser keeps no Secure cookie from plain HTTP beyond localhost: use HTTPS
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf
    token = make_user("ann")["Authorization"].split()[1]
    r = browser.post("/signin", data={"token": token, "csrf": csrf.group(1)})
    assert r.status_code == 303
    cookie = r.headers["set-cookie"]
    assert ("secure" in cookie.lower()) is secure, cookie
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()


def test_every_response_carries_the_security_headers(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    sign_in(client, make_user("ann"))
    for path in (
        "/",
        "/signin",
        "/history",
        "/docs",
        "/redoc",
        "/openapi.json",
        "/api/health",
        "/static/htmx.min.js",
        "/no-such-page",
        "/submissions/999999",
    ):
        r = client.get(path, follow_redirects=False)
        h = r.headers
        csp = h.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp, (path, csp)
        # the whole policy enforced, not only reported (scripts from this site only)
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
        assert "content-security-policy-report-only" not in h, path
        assert h.get("x-content-type-options") == "nosniff", path
        assert h.get("referrer-policy") == "same-origin", path
        assert h.get("x-frame-options") == "DENY", path


def test_docs_pages_allow_their_own_start_up_script_only(client: TestClient) -> None:
    r = client.get("/docs")
    nonce = re.search(r"'nonce-([^']+)'", r.headers["content-security-policy"])
    assert nonce and f'<script nonce="{nonce.group(1)}">' in r.text
    assert "<script>" not in r.text
    again = client.get("/docs").headers["content-security-policy"]
    assert nonce.group(1) not in again  # a nonce per response


def test_back_stays_on_this_site(client: TestClient, make_user) -> None:  # type: ignore[no-untyped-def]
    make_user("ann")
    csrf = sign_in(client, make_user("prof", "instructor"))
    sid = graded("ann", 2)
    for back in ("//evil.example/x", "/\\evil.example", "https://evil.example", "/\tx", "", "x"):
        r = client.post(
            f"/submissions/{sid}/override",
            data={"level": "1", "note": "n", "csrf": csrf, "back": back},
            follow_redirects=False,
        )
        assert r.status_code == 303
        assert r.headers["location"] == f"/submissions/{sid}", (back, r.headers["location"])
    r = client.post(
        f"/submissions/{sid}/override",
        data={"level": "1", "note": "n", "csrf": form_csrf(client), "back": "/leaderboard/x"},
        follow_redirects=False,
    )
    assert r.headers["location"] == "/leaderboard/x"


def test_the_first_requests_at_once_all_get_the_one_secret_key(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Found in CI: the first sign-in pages served at once read the key file while another
    request was still writing it, signed a cookie with an empty key, and its form was then
    refused as forged (403). Every caller, however many at once, gets the one key written."""
    import threading

    from app.settings import Settings
    from app.web.session import secret_key

    def first_reads(s: Settings, n: int) -> list[str]:
        barrier = threading.Barrier(n)
        keys: list[str] = []

        def read() -> None:
            barrier.wait()
            keys.append(secret_key(s))

        threads = [threading.Thread(target=read) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        return keys

    for round_ in range(20):
        home = tmp_path / f"home{round_}"
        n = 16
        keys = first_reads(Settings(home=home, secret_key=""), n)
        assert len(keys) == n and len(set(keys)) == 1 and len(keys[0]) >= 48, set(keys)
        assert keys[0] == (home / "secret_key").read_text().strip()
        assert (home / "secret_key").stat().st_mode & 0o777 == 0o600

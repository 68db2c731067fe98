"""Sign-in limits that hold: each attempt is counted before its password is verified, one at a
time per login and per address, so concurrent attempts cannot all pass the check; an unknown
name is limited like a known one, in the same words; and the client address comes from
KGRADE_TRUSTED_PROXIES only, never from a forwarded header any local peer sends.

A real uvicorn serves the app here (in a thread, on PostgreSQL), as `kgrade api` does, from
`api_config`: the forwarded headers are uvicorn's to believe or not."""

# ruff: noqa: F811  (the service fixtures, imported)
from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from sqlalchemy import select

from tests.service.conftest import make_user, pg_url, service_env  # noqa: F401

PASSWORD = "correct horse battery"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving() -> Iterator[str]:
    import uvicorn

    from app.cli.api_cmd import api_config

    port = _free_port()
    server = uvicorn.Server(api_config("127.0.0.1", port, 1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _with_password(name: str) -> None:
    from app.db import transaction
    from app.models import User
    from app.users import signin

    with transaction() as s:
        signin.set_password(s, s.query(User).filter_by(name=name).one(), PASSWORD)


def sign_in(
    url: str, login: str, password: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=60, follow_redirects=False) as c:
        form = {"login": login, "password": password}
        m = re.search(r'name="csrf" value="([^"]+)"', c.get("/signin").text)
        if m:
            form["csrf"] = m.group(1)
        return c.post("/signin", data=form, headers=headers or {})


def _failures() -> list[tuple[str, str | None]]:
    from app.db import transaction
    from app.models import SigninFailure

    with transaction() as s:
        return [(f.address, f.login) for f in s.scalars(select(SigninFailure))]


def _set(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    from app.settings import get_settings

    for k, v in env.items():
        monkeypatch.setenv(f"KGRADE_{k.upper()}", v)
    get_settings.cache_clear()


def test_concurrent_wrong_passwords_get_no_more_tries_than_the_limit(
    service_env, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    make_user("ann")
    _with_password("ann")
    _set(monkeypatch, signin_failures_per_account="5", signin_failures_per_address="1000")
    n = 30
    barrier = threading.Barrier(n)
    statuses: list[int] = []
    with serving() as url:

        def attempt() -> None:
            barrier.wait()
            statuses.append(sign_in(url, "ann", "wrong password!").status_code)

        threads = [threading.Thread(target=attempt) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert sorted(statuses) == [401] * 5 + [429] * (n - 5), sorted(statuses)
        assert len(_failures()) == 5  # each a verified wrong password; refusals not recorded
        right = sign_in(url, "ann", PASSWORD)
        assert right.status_code == 429, "the account stays locked for its window"


def test_a_lockout_says_the_same_for_known_and_unknown_names(
    service_env, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    make_user("ann")
    _with_password("ann")
    _set(monkeypatch, signin_failures_per_account="3", signin_failures_per_address="1000")
    said = {}
    with serving() as url:
        for name in ("ann", "nobody-here"):
            statuses = [sign_in(url, name, "wrong password!").status_code for _ in range(4)]
            assert statuses == [401, 401, 401, 429], (name, statuses)
            page = sign_in(url, name, "wrong password!").text
            m = re.search(r"too many failed sign-ins[^<]*", page)
            assert m, page
            said[name] = re.sub(r"\d+ minutes?", "N minutes", m.group(0))
    assert said["ann"] == said["nobody-here"], said


def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(
    service_env, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    _set(monkeypatch, signin_failures_per_account="1000", signin_failures_per_address="3")
    with serving() as url:
        statuses = [
            sign_in(url, f"x{i}", "wrong", {"X-Forwarded-For": f"10.9.{i}.1"}).status_code
            for i in range(5)
        ]
    assert statuses == [401, 401, 401, 429, 429], statuses
    assert {a for a, _ in _failures()} == {"127.0.0.1"}


def test_a_trusted_proxy_names_the_client(
    service_env, make_user, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    _set(
        monkeypatch,
        signin_failures_per_account="1000",
        signin_failures_per_address="3",
        trusted_proxies="127.0.0.1",
    )
    with serving() as url:
        statuses = [
            sign_in(url, f"x{i}", "wrong", {"X-Forwarded-For": f"10.9.{i}.1"}).status_code
            for i in range(5)
        ]
        behind = [
            sign_in(url, f"y{i}", "wrong", {"X-Forwarded-For": "10.1.1.1"}).status_code
            for i in range(4)
        ]
    assert statuses == [401] * 5, statuses  # five students behind the proxy
    assert behind == [401, 401, 401, 429], behind  # one of them, limited on their own
    assert {a for a, _ in _failures()} == {f"10.9.{i}.1" for i in range(5)} | {"10.1.1.1"}

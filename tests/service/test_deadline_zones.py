"""Deadlines in every zone, on PostgreSQL and on SQLite (the embedded default), through the API,
the instructors' page and the CLI: a time typed in a zone is read back as the same instant and
shown in that zone, on both sides of a daylight-saving change, east and west of UTC; a
submission 20 minutes before the real due time is admitted, one 20 minutes after refused.

(SQLite keeps no zone: a UTC time read back from it was once interpreted in the deadline's zone,
off by the zone's offset: a student in Berlin refused an hour early, one in New York let in
five hours late.)"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.faults.stack import free_port, wait_for
from tests.service.conftest import signin_form
from tests.service.test_cli_course import kgrade

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference_kernels" / "c3a_softmax" / "reference.py").read_text()
CP = "c3a-softmax"

# (zone, a wall time before its 2026 daylight-saving change, one after, what each shows)
AROUND_DST = [
    ("Europe/Berlin", "2026-10-24T20:30", "2026-10-25T20:30", ("CEST", "CET")),
    ("America/New_York", "2026-10-31T20:30", "2026-11-01T20:30", ("EDT", "EST")),
    ("Australia/Sydney", "2026-10-03T20:30", "2026-10-04T20:30", ("AEST", "AEDT")),
]
# the same instants written by hand in UTC (not computed by the code under test's library)
EXPECTED_UTC = {
    "2026-10-24T20:30": "2026-10-24T18:30+00:00",
    "2026-10-25T20:30": "2026-10-25T19:30+00:00",
    "2026-10-31T20:30": "2026-11-01T00:30+00:00",
    "2026-11-01T20:30": "2026-11-02T01:30+00:00",
    "2026-10-03T20:30": "2026-10-03T10:30+00:00",
    "2026-10-04T20:30": "2026-10-04T09:30+00:00",
}


@pytest.fixture(params=["postgresql", "sqlite"])
def backend(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, str]]:
    """The settings of a migrated, empty database of either kind (SQLite: the embedded
    default, its broker under KGRADE_HOME)."""
    if request.param == "postgresql":
        yield request.getfixturevalue("service_env")
        return
    from app.cli.host import migrate
    from app.jobs.celery_app import reconfigure
    from app.settings import get_settings

    for k in [k for k in os.environ if k.startswith("KGRADE_")]:
        monkeypatch.delenv(k)
    env = {"KGRADE_HOME": str(tmp_path / "home")}
    monkeypatch.setenv("KGRADE_HOME", env["KGRADE_HOME"])
    get_settings.cache_clear()
    reconfigure()
    migrate()
    yield env
    get_settings.cache_clear()
    reconfigure()


def _user(name: str, role: str) -> str:
    from app.db import transaction
    from app.users import service

    with transaction() as session:
        _, token = service.add(session, name, role)
    return token


def _headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _local(t: datetime, tz: str) -> str:
    return t.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%dT%H:%M:%S")


@pytest.mark.parametrize(("tz", "before", "after", "names"), AROUND_DST)
def test_a_deadline_reads_back_as_typed_around_a_dst_change(
    backend: dict[str, str], tz: str, before: str, after: str, names: tuple[str, str]
) -> None:
    from app.main import create_app

    client = TestClient(create_app())
    prof = _headers(_user("prof", "instructor"))
    for typed, name in zip((before, after), names, strict=True):
        body = {"due": typed, "timezone": tz, "policy": "accept"}
        r = client.put(f"/api/checkpoints/{CP}/deadline", headers=prof, json=body)
        assert r.status_code == 200, r.text
        back = client.get(f"/api/checkpoints/{CP}/deadline", headers=prof).json()
        assert datetime.fromisoformat(back["due"]) == datetime.fromisoformat(EXPECTED_UTC[typed])
        day = typed.replace("T", " ")
        assert back["shown"]["due"] == f"{day} {name} ({tz})"


def _page_form(client: TestClient, token: str) -> str:
    """Signed in on the web; the CSRF token of the deadlines page."""
    assert client.post("/signin", data=signin_form(client, {"token": token})).status_code in (
        200,
        303,
    )
    html = client.get("/deadlines").text
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


@pytest.mark.parametrize("tz", [z for z, *_ in AROUND_DST])
def test_the_page_sets_a_deadline_a_student_meets_in_its_zone(
    backend: dict[str, str], tz: str
) -> None:
    from app.main import create_app

    web, api = TestClient(create_app()), TestClient(create_app())
    csrf = _page_form(web, _user("prof", "instructor"))
    ann = _headers(_user("ann", "student"))
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(minutes=20)
    form = {"csrf": csrf, "due": _local(soon, tz), "policy": "refuse", "timezone": tz}
    r = web.post(f"/deadlines/{CP}", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    shown = soon.astimezone(ZoneInfo(tz)).strftime("%Y-%m-%d %H:%M")
    assert f"{shown} " in web.get("/deadlines").text  # the page shows it as typed
    body = {"checkpoint": CP, "source": REFERENCE}
    r = api.post("/api/submissions", headers=ann, json=body)
    assert r.status_code == 201 and r.json()["late"] is False, r.text  # 20 min before: in
    gone = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=20)
    form["due"] = _local(gone, tz)
    assert web.post(f"/deadlines/{CP}", data=form, follow_redirects=False).status_code == 303
    r = api.post("/api/submissions", headers=ann, json=body)
    assert r.status_code == 403 and "it was due at" in r.json()["error"], r.text


@pytest.fixture
def server(backend: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """uvicorn on the backend's database."""
    port = free_port()
    log = (tmp_path / "api.log").open("wb")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)],
        cwd=ROOT,
        env={**env, **backend},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/api/health", timeout=2).status_code == 200, 60, url)
    except AssertionError:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError((tmp_path / "api.log").read_text()[-2000:]) from None
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def test_the_cli_reads_back_what_it_set_in_three_zones(server: str) -> None:
    prof = _user("prof", "instructor")
    for tz, _, after, (_, name) in AROUND_DST:
        r = kgrade(server, prof, "checkpoints", "deadline", CP, "--due", after, "--tz", tz)
        assert r.returncode == 0, r.stderr
        said: Any = r.stdout.strip()
        back = kgrade(server, prof, "checkpoints", "deadline", CP).stdout.strip()
        day = after.replace("T", " ")
        assert (
            said
            == back
            == f"{CP}: due {day} {name} ({tz}); late work refused (set by an instructor)"
        )


def test_the_deadlines_form_is_filled_with_the_deadline_in_force(backend: dict[str, str]) -> None:
    from app.main import create_app

    web = TestClient(create_app())
    csrf = _page_form(web, _user("prof", "instructor"))
    form = {"csrf": csrf, "due": "2026-11-01T20:30:00", "policy": "accept"}
    form |= {"late_until": "2026-11-02T08:00:00", "timezone": "America/New_York"}
    assert web.post(f"/deadlines/{CP}", data=form, follow_redirects=False).status_code == 303
    html = web.get("/deadlines").text
    card = html[html.index(f'data-checkpoint="{CP}"') :]
    card = card[: card.index("</section>")]
    assert 'name="due" step="1" required value="2026-11-01T20:30:00"' in card
    assert 'name="late_until" step="1" value="2026-11-02T08:00:00"' in card
    assert 'name="opens" step="1" value=""' in card

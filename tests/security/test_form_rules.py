"""One rule per action, whatever the front end: every state-changing form, given out-of-range
and malformed values, answers as the JSON API does for the same values (the same status: a
4xx, the error page or the form again) and stores nothing.

Each case is (the form's fields, the API's body); the page must answer the API's status."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.security.pages import sign_in
from tests.service.conftest import make_user, pg_url, service_env  # noqa: F401  (fixtures)

CK = "c3a-vector-add"


def _graded(user: str, level: int) -> int:
    from app.db import transaction
    from app.models import Stage, Status, Submission, User

    with transaction() as s:
        u = s.query(User).filter_by(name=user).one()
        sub = Submission(
            user_id=u.id,
            checkpoint=CK,
            source="x",
            status=Status.DONE,
            stage=Stage.DONE,
            level=level,
            verdict="correct",
            speedup=1.5,
            gpu_model="h200",
        )
        s.add(sub)
        s.flush()
        return sub.id


def _count(model: Any) -> int:
    from app.db import transaction

    with transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def _snapshot() -> tuple[Any, ...]:
    from app.db import transaction
    from app.models import (
        ApiToken,
        CheckpointDeadline,
        Evidence,
        LevelOverride,
        Submission,
        User,
    )

    with transaction() as s:
        levels = tuple(s.scalars(select(Submission.level).order_by(Submission.id)))
        ev = tuple(s.scalars(select(Evidence.status).order_by(Evidence.id)))
        names = tuple(s.scalars(select(User.name).order_by(User.id)))
    counts = tuple(
        _count(m) for m in (ApiToken, CheckpointDeadline, LevelOverride, Submission, User)
    )
    return levels, ev, names, counts


@pytest.fixture
def world(service_env, make_user) -> dict[str, Any]:  # type: ignore[no-untyped-def]  # noqa: F811
    from app.main import create_app

    ann, prof = make_user("ann"), make_user("prof", "instructor")
    admin = make_user("root", "admin")
    two, three = _graded("ann", 2), _graded("ann", 3)
    api = TestClient(create_app(), raise_server_exceptions=False)
    r = api.post(
        f"/api/submissions/{three}/evidence",
        headers=ann,
        json={"url": "https://example.org/pr/1"},
    )
    assert r.status_code == 201
    web = {}
    for who, headers in (("ann", ann), ("prof", prof), ("root", admin)):
        client = TestClient(create_app(), follow_redirects=False, raise_server_exceptions=False)
        web[who] = (client, sign_in(client, headers))
    return {
        "api": api,
        "headers": {"ann": ann, "prof": prof, "root": admin},
        "web": web,
        "two": two,
        "three": three,
        "ev": r.json()["id"],
    }


BIG = "x" * 3000
Case = tuple[str, str, str, Callable[[dict[str, Any]], str], dict[str, Any], dict[str, Any]]
# (who, web path, API method, API path from the world, form fields, API JSON body)
CASES: list[tuple[str, Case]] = []


def case(name: str, *c: Any) -> None:
    CASES.append((name, c))  # type: ignore[arg-type]


for lvl in ("5", "99", "-5", "abc", "", "2.5", "1e3", "99999999999999999999"):
    body = {"level": lvl, "note": "why"}
    try:
        api_level: Any = int(lvl)
    except ValueError:
        api_level = lvl
    case(
        f"override-level-{lvl or 'empty'}",
        "prof",
        "/submissions/{two}/override",
        "POST",
        "/api/submissions/{two}/override",
        body,
        {"level": api_level, "note": "why"},
    )
case(
    "override-4-on-a-level-2",
    "prof",
    "/submissions/{two}/override",
    "POST",
    "/api/submissions/{two}/override",
    {"level": "4", "note": "why"},
    {"level": 4, "note": "why"},
)
for name, note in (("empty", ""), ("long", BIG)):
    case(
        f"override-note-{name}",
        "prof",
        "/submissions/{two}/override",
        "POST",
        "/api/submissions/{two}/override",
        {"level": "1", "note": note},
        {"level": 1, "note": note},
    )
case(
    "decision-maybe",
    "prof",
    "/evidence/{ev}/decision",
    "POST",
    "/api/submissions/evidence/{ev}/decision",
    {"approve": "maybe"},
    {"approve": "maybe"},
)
for name, fields in (
    ("not-a-date", {"due": "next friday"}),
    ("no-due", {"due": ""}),
    ("zone", {"due": "2030-01-01T00:00", "timezone": "Mars/Olympus"}),
    ("long-zone", {"due": "2030-01-01T00:00", "timezone": "Europe/" + "x" * 100}),
    ("policy", {"due": "2030-01-01T00:00", "policy": "sometimes"}),
    ("opens-after", {"due": "2030-01-01T00:00", "opens": "2031-01-01T00:00"}),
    ("late-before", {"due": "2030-01-01T00:00", "policy": "accept", "late_until": "2029-01-01"}),
    ("late-refuse", {"due": "2030-01-01T00:00", "late_until": "2031-01-01T00:00"}),
    ("year", {"due": "99999-01-01T00:00"}),
):
    case(
        f"deadline-{name}",
        "prof",
        f"/deadlines/{CK}",
        "PUT",
        f"/api/checkpoints/{CK}/deadline",
        fields,
        {k: v or None for k, v in fields.items()},
    )
for name, token in (
    ("empty", ""),
    ("blank", "   "),
    ("long", "t" * 101),
    ("control", "a\x07b"),
    ("nul", "a\x00b"),
):
    case(
        f"token-{name}",
        "ann",
        "/account/tokens",
        "POST",
        "/api/tokens",
        {"name": token},
        {"name": token},
    )
for name, csv in (
    ("no-header", "zed\n"),
    ("bad-role", "name,role\nzed,wizard\n"),
    ("long-name", f"name\n{'z' * 101}\n"),
    ("long-section", f"name,section\nzed,{'s' * 101}\n"),
    ("huge", "name\n" + "z\n" * 600_000),
):
    case(
        f"roster-{name}",
        "prof",
        "/users/import",
        "POST",
        "/api/users/import",
        {"text": csv},
        {"csv": csv},
    )
case(
    "open-maybe",
    "root",
    "/admin/checkpoints/{CK}/open",
    "PATCH",
    f"/api/checkpoints/{CK}",
    {"open": "maybe"},
    {"open": "maybe"},
)
for name, fields in (
    ("no-checkpoint", {"checkpoint": "", "source": "x"}),
    ("long-checkpoint", {"checkpoint": "c" * 101, "source": "x"}),
    ("empty-source", {"checkpoint": CK, "source": ""}),
    ("huge-source", {"checkpoint": CK, "source": "#" * (257 * 1024)}),
):
    case(f"submit-{name}", "ann", "/submit", "POST", "/api/submissions", fields, fields)


@pytest.mark.parametrize(("name", "c"), CASES, ids=[n for n, _ in CASES])
def test_a_form_answers_as_the_api(world: dict[str, Any], name: str, c: Case) -> None:
    who, web_path, method, api_path, form, api_body = c
    ids = {"two": world["two"], "three": world["three"], "ev": world["ev"], "CK": CK}
    before = _snapshot()
    api = world["api"].request(
        method, api_path.format(**ids), headers=world["headers"][who], json=api_body
    )
    assert 400 <= api.status_code < 500, (api.status_code, api.text)
    assert _snapshot() == before, "the API stored something it refused"
    client, csrf = world["web"][who]
    r = client.post(web_path.format(**ids), data={**form, "csrf": csrf})
    if name == "roster-huge":  # the form parser refuses a field over 1 MiB before the app: 400
        assert r.status_code == 400, r.status_code
    else:
        assert r.status_code == api.status_code, (r.status_code, api.status_code, r.text[:500])
    assert "text/html" in r.headers["content-type"], "a page answers with a page"
    assert _snapshot() == before, "the form stored something the API refuses"


def test_a_good_override_still_works_from_the_form(world: dict[str, Any]) -> None:
    client, csrf = world["web"]["prof"]
    r = client.post(
        f"/submissions/{world['three']}/override", data={"level": "4", "note": "ok", "csrf": csrf}
    )
    assert r.status_code == 303
    from app.db import transaction
    from app.models import Submission

    with transaction() as s:
        assert s.get(Submission, world["three"]).level == 4  # type: ignore[union-attr]

"""Who may do what: every endpoint of the app × every role, on a student's own submission and on
someone else's.

Actors: anonymous, `student` (ann, who owns the submission and its evidence), `other` (bob, a
student too), `instructor`, `admin` (the roles of app/models.py). The API is called with a
bearer token, the pages with a signed-in session and its CSRF token. Each cell starts from the
same fresh database. The endpoints are read from the app's routes: one without a row here fails
`test_every_endpoint_has_a_row`.

A cell is the status expected, or (303, where the redirect goes). Requests are valid, so that
an allowed cell shows the endpoint working (2xx/3xx) or refusing for a reason that is not access
(409 for adding a checkpoint with a built-in's id: nothing on disk changes).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.routing import Mount, Route

from tests.service.conftest import signin_form

ACTORS = ("anonymous", "student", "other", "instructor", "admin")
CK = "c3a-vector-add"
SIGNIN = (303, "/signin")
Expect = int | tuple[int, str]
Body = Callable[[dict[str, Any]], dict[str, Any]]

ALL_200 = (200,) * 5
API_ALL = (401, 200, 200, 200, 200)
API_OWN = (401, 200, 404, 200, 200)
API_OWN_ONLY = (401, 200, 404, 404, 404)
API_STAFF = (401, 403, 403, 200, 200)
API_ADMIN = (401, 403, 403, 403, 200)
API_ADMIN_BUILTIN = (401, 403, 403, 403, 409)  # allowed, refused because it is built-in
PAGE_ALL = (SIGNIN, 200, 200, 200, 200)
PAGE_OWN = (SIGNIN, 200, 404, 200, 200)
PAGE_STAFF = (SIGNIN, 403, 403, 200, 200)
PAGE_ADMIN = (SIGNIN, 403, 403, 403, 200)
TO_SUB = (303, "/submissions/")


def _nothing(_: dict[str, Any]) -> dict[str, Any]:
    return {}


def _builtin_checkpoint(_: dict[str, Any]) -> dict[str, Any]:
    return {
        "json": {
            "definition": f'id = "{CK}"\n',
            "problem": "",
            "reference": "",
            "wrong": {},
        }
    }


def _builtin_upload(c: dict[str, Any]) -> dict[str, Any]:
    files = [
        ("definition", ("checkpoint.toml", f'id = "{CK}"\n')),
        ("problem", ("problem.py", "")),
        ("reference", ("reference.py", "")),
        ("wrong", ("bad.py", "")),
    ]
    return {"data": {"csrf": c["csrf"]}, "files": files}


# (method, path) → (request body from the context, expected per actor in ACTORS order)
MATRIX: dict[tuple[str, str], tuple[Body, tuple[Expect, ...]]] = {
    # public
    ("GET", "/api/health"): (_nothing, ALL_200),
    ("GET", "/openapi.json"): (_nothing, ALL_200),
    ("GET", "/docs"): (_nothing, ALL_200),
    ("GET", "/redoc"): (_nothing, ALL_200),
    # Prometheus: no role opens it; without KGRADE_METRICS_TOKEN only loopback (test_metrics.py)
    ("GET", "/metrics"): (_nothing, (403,) * 5),
    # the JSON API
    ("POST", "/api/submissions"): (
        lambda c: {"json": {"checkpoint": CK, "source": c["source"]}},
        (401, 201, 201, 201, 201),
    ),
    ("GET", "/api/submissions"): (_nothing, API_ALL),
    ("GET", "/api/submissions/{submission_id}"): (_nothing, API_OWN),
    ("GET", "/api/submissions/{submission_id}/overrides"): (_nothing, API_OWN),
    ("POST", "/api/submissions/{submission_id}/override"): (
        lambda c: {"json": {"level": 2, "note": "matrix"}},
        API_STAFF,
    ),
    ("POST", "/api/submissions/{submission_id}/explanation/decision"): (
        lambda c: {"json": {"accept": True, "note": "matrix"}},
        (401, 403, 403, 409, 409),  # staff only; this one has no explanation to decide on
    ),
    ("POST", "/api/submissions/{submission_id}/evidence"): (
        lambda c: {"json": {"url": "https://example.com/pr/2"}},
        (401, 201, 404, 404, 404),  # only the author attaches evidence to their submission
    ),
    ("POST", "/api/submissions/evidence/{evidence_id}/decision"): (
        lambda c: {"json": {"approve": False, "note": "matrix"}},
        API_STAFF,
    ),
    ("GET", "/api/checkpoints"): (_nothing, API_ALL),
    ("GET", "/api/checkpoints/{checkpoint_id}"): (_nothing, API_ALL),
    ("POST", "/api/checkpoints"): (_builtin_checkpoint, API_ADMIN_BUILTIN),
    ("PATCH", "/api/checkpoints/{checkpoint_id}"): (  # a built-in too (course.toml: issue 31)
        lambda c: {"json": {"open": True}},
        API_ADMIN,
    ),
    ("PUT", "/api/checkpoints/order"): (lambda c: {"json": {"order": []}}, API_ADMIN),
    ("GET", "/api/checkpoints/validations/{validation_id}"): (_nothing, API_ADMIN),
    ("GET", "/api/checkpoints/{checkpoint_id}/versions"): (_nothing, API_STAFF),
    ("GET", "/api/checkpoints/{checkpoint_id}/versions/{version}"): (_nothing, API_STAFF),
    ("GET", "/api/submissions/{submission_id}/results"): (_nothing, API_OWN),
    ("POST", "/api/regrades"): (
        lambda c: {"json": {"submission": c["sid"]}},
        (401, 403, 403, 202, 202),
    ),
    ("GET", "/api/regrades"): (_nothing, API_STAFF),
    ("GET", "/api/regrades/{regrade_id}"): (_nothing, API_STAFF),
    ("GET", "/api/checkpoints/{checkpoint_id}/deadline"): (_nothing, API_ALL),
    ("PUT", "/api/checkpoints/{checkpoint_id}/deadline"): (
        lambda c: {"json": {"due": "2030-01-01T00:00:00Z"}},
        API_STAFF,
    ),
    ("DELETE", "/api/checkpoints/{checkpoint_id}/deadline"): (_nothing, API_STAFF),
    ("GET", "/api/leaderboard/{checkpoint}"): (_nothing, API_STAFF),
    ("GET", "/api/export/{checkpoint}.csv"): (_nothing, API_STAFF),
    ("GET", "/api/export.csv"): (_nothing, API_STAFF),
    ("GET", "/api/similarity/{checkpoint}"): (_nothing, API_STAFF),
    ("GET", "/api/similarity/{checkpoint}/handouts"): (_nothing, API_STAFF),
    ("PUT", "/api/similarity/{checkpoint}/handouts/{name}"): (
        lambda c: {"json": {"text": "x = 1\n"}},
        API_STAFF,
    ),
    # a fresh world has none registered: staff's answer is that there is no such handout
    ("DELETE", "/api/similarity/{checkpoint}/handouts/{name}"): (
        _nothing,
        (401, 403, 403, 404, 404),
    ),
    ("GET", "/api/similarity/{checkpoint}/summary.csv"): (_nothing, API_STAFF),
    ("GET", "/api/users/me"): (_nothing, API_ALL),
    ("GET", "/api/users"): (_nothing, API_STAFF),
    ("POST", "/api/users/import"): (lambda c: {"json": {"csv": "name\nzed\n"}}, API_STAFF),
    ("POST", "/api/users/{name}/disable"): (_nothing, API_STAFF),  # bob's account
    ("POST", "/api/users/{name}/enable"): (_nothing, API_STAFF),
    ("POST", "/api/users/{name}/reset"): (_nothing, API_STAFF),
    ("GET", "/api/tokens"): (_nothing, API_ALL),
    ("POST", "/api/tokens"): (lambda c: {"json": {"name": "matrix"}}, (401, 201, 201, 201, 201)),
    ("DELETE", "/api/tokens/{token_id}"): (_nothing, API_OWN_ONLY),  # ann's token
    # the pages
    ("GET", "/"): (_nothing, PAGE_ALL),  # the home page
    ("GET", "/signin"): (_nothing, ALL_200),
    ("POST", "/signin"): (
        lambda c: {"data": {"token": c["token"], "csrf": c["csrf"]}},
        (401, *(((303, "/"),) * 4)),
    ),
    ("GET", "/invite/{token}"): (_nothing, ALL_200),  # zoe's invite: the link is the key
    ("POST", "/invite/{token}"): (
        lambda c: {"data": {"password": "matrix password", "confirm": "matrix password"}},
        ((303, "/"),) * 5,
    ),
    ("GET", "/account"): (_nothing, PAGE_ALL),
    ("POST", "/account/tokens"): (
        lambda c: {"data": {"csrf": c["csrf"], "name": "matrix"}},
        PAGE_ALL,
    ),
    ("POST", "/account/tokens/{token_id}/revoke"): (
        lambda c: {"data": {"csrf": c["csrf"]}},
        (SIGNIN, (303, "/account"), 404, 404, 404),
    ),
    ("POST", "/account/password"): (  # token accounts have no password to change: a 400
        lambda c: {"data": {"csrf": c["csrf"], "current": "x", "password": "y", "confirm": "y"}},
        (SIGNIN, 400, 400, 400, 400),
    ),
    ("GET", "/users"): (_nothing, PAGE_STAFF),
    ("POST", "/users/import"): (
        lambda c: {"data": {"csrf": c["csrf"], "text": "name\nzed\n"}},
        PAGE_STAFF,
    ),
    ("POST", "/users/{name}/{action}"): (
        lambda c: {"data": {"csrf": c["csrf"]}},
        (SIGNIN, 403, 403, (303, "/users"), (303, "/users")),
    ),
    ("POST", "/signout"): (lambda c: {"data": {"csrf": c["csrf"]}}, ((303, "/signin"),) * 5),
    ("GET", "/submit"): (_nothing, PAGE_ALL),
    ("POST", "/submit"): (
        lambda c: {"data": {"checkpoint": CK, "csrf": c["csrf"], "source": c["source"]}},
        (SIGNIN, TO_SUB, TO_SUB, TO_SUB, TO_SUB),
    ),
    ("GET", "/submissions/{sid}"): (_nothing, PAGE_OWN),
    ("GET", "/submissions/{sid}/status"): (_nothing, PAGE_OWN),
    ("GET", "/submissions/{sid}/report.ncu-rep"): (_nothing, PAGE_OWN),
    # the matrix's result has no measurements to re-check against: 409 where it may be read
    ("POST", "/submissions/{sid}/explanation/recheck"): (
        lambda c: {"data": {"explanation": "My kernel is fused.", "csrf": c["csrf"]}},
        (SIGNIN, 409, 404, 409, 409),
    ),
    ("GET", "/history"): (_nothing, PAGE_ALL),
    ("GET", "/leaderboard"): (
        _nothing,
        (SIGNIN, 403, 403, (303, "/leaderboard/"), (303, "/leaderboard/")),
    ),
    ("GET", "/leaderboard/{checkpoint}"): (_nothing, PAGE_STAFF),
    ("GET", "/leaderboard/{checkpoint}/grades.csv"): (_nothing, PAGE_STAFF),
    ("GET", "/gradebook.csv"): (_nothing, PAGE_STAFF),
    ("GET", "/similarity/{checkpoint}"): (_nothing, PAGE_STAFF),
    ("GET", "/similarity/{checkpoint}/summary.csv"): (_nothing, PAGE_STAFF),
    ("POST", "/similarity/{checkpoint}/handouts"): (
        lambda c: {"data": {"csrf": c["csrf"]}, "files": [("upload", ("h.py", "x = 1\n"))]},
        (SIGNIN, 403, 403, (303, "/similarity/"), (303, "/similarity/")),
    ),
    # a fresh world has none registered: staff get the page saying there is no such handout
    ("POST", "/similarity/{checkpoint}/handouts/{name}/remove"): (
        lambda c: {"data": {"csrf": c["csrf"]}},
        (SIGNIN, 403, 403, 404, 404),
    ),
    ("POST", "/submissions/{sid}/override"): (
        lambda c: {"data": {"level": "2", "note": "matrix", "csrf": c["csrf"]}},
        (SIGNIN, 403, 403, TO_SUB, TO_SUB),
    ),
    ("POST", "/submissions/{sid}/explanation/decision"): (
        lambda c: {"data": {"accept": "true", "note": "matrix", "csrf": c["csrf"]}},
        (SIGNIN, 403, 403, 409, 409),  # staff only; this one has no explanation to decide on
    ),
    ("POST", "/evidence/{eid}/decision"): (
        lambda c: {"data": {"approve": "no", "csrf": c["csrf"], "back": "/history"}},
        (SIGNIN, 403, 403, (303, "/history"), (303, "/history")),
    ),
    ("POST", "/submissions/{sid}/regrade"): (
        lambda c: {"data": {"csrf": c["csrf"]}},
        (SIGNIN, 403, 403, TO_SUB, TO_SUB),
    ),
    ("POST", "/checkpoints/{checkpoint_id}/regrade"): (
        lambda c: {"data": {"csrf": c["csrf"], "confirm": "yes"}},
        (SIGNIN, 403, 403, (303, "/regrades/"), (303, "/regrades/")),
    ),
    ("GET", "/regrades/{rid}"): (_nothing, PAGE_STAFF),
    ("GET", "/regrades/{rid}/status"): (_nothing, PAGE_STAFF),
    ("GET", "/deadlines"): (_nothing, PAGE_STAFF),
    ("POST", "/deadlines/{checkpoint_id}"): (
        lambda c: {"data": {"csrf": c["csrf"], "due": "2030-01-01T00:00"}},
        (SIGNIN, 403, 403, (303, "/deadlines"), (303, "/deadlines")),
    ),
    ("GET", "/admin/checkpoints"): (_nothing, (SIGNIN, 403, 403, 403, 200)),
    ("POST", "/admin/checkpoints"): (_builtin_upload, (SIGNIN, 403, 403, 403, 409)),
    ("GET", "/admin/checkpoints/validations/{vid}"): (_nothing, PAGE_ADMIN),
    ("GET", "/admin/checkpoints/validations/{vid}/status"): (_nothing, PAGE_ADMIN),
    ("POST", "/admin/checkpoints/{checkpoint_id}/open"): (
        lambda c: {"data": {"open": "yes", "csrf": c["csrf"]}},  # a built-in: course.toml
        (SIGNIN, 403, 403, 403, (303, "/admin/checkpoints")),
    ),
}


def _routes(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for r in routes:
        if isinstance(r, APIRoute | Route):
            for m in sorted((r.methods or set()) - {"HEAD"}):
                yield m, prefix + r.path
        elif isinstance(r, Mount):
            continue  # /static: files, public
        elif hasattr(r, "original_router"):  # FastAPI's included routers
            yield from _routes(r.original_router.routes, prefix + r.include_context.prefix)


def test_every_endpoint_has_a_row() -> None:
    from app.main import create_app

    routes = set(_routes(create_app().routes))
    assert routes - set(MATRIX) == set(), "endpoints with no row in the access matrix"
    assert set(MATRIX) - routes == set(), "rows for endpoints that no longer exist"


@pytest.fixture
def world(service_env: dict[str, str]) -> Callable[[], dict[str, Any]]:
    """world() → a fresh database: the five actors, ann's graded submission with a pending
    evidence link and an Nsight report, an admin's checkpoint validation (queued: no worker
    runs here), the tokens (and ann's token's id), and zoe, invited, with her link's token."""
    from app.checkpoints import service as checkpoints
    from app.checkpoints import versions
    from app.db import engine, transaction
    from app.models import CheckpointValidation, Evidence, Regrade, Status, Submission, User
    from app.settings import get_settings
    from app.users import repository as users_repository
    from app.users import service, signin

    def make() -> dict[str, Any]:
        with engine().begin() as conn:
            conn.execute(
                text(
                    "TRUNCATE api_tokens, invites, signin_failures, checkpoint_validations, "
                    "checkpoint_deadlines, "
                    "evidence, grading_events, level_overrides, standings, grading_results, "
                    "regrades, checkpoint_versions, submissions, users, workers, web_sessions "
                    "RESTART IDENTITY"
                )
            )
        tokens: dict[str, str | None] = {"anonymous": None}
        with transaction() as session:
            for actor, name, role in (
                ("student", "ann", "student"),
                ("other", "bob", "student"),
                ("instructor", "prof", "instructor"),
                ("admin", "root", "admin"),
            ):
                user, tokens[actor] = service.add(session, name, role)
                if name == "ann":
                    ann = user
                if name == "root":
                    root = user
            sub = Submission(
                user_id=ann.id,
                checkpoint=CK,
                source="# ann's kernel",
                status=Status.DONE,
                stage="done",
                verdict="correct",
                level=3,
                result={"verdict": "correct", "level": 3, "cases": [], "messages": []},
            )
            session.add(sub)
            session.flush()
            ev = Evidence(submission_id=sub.id, url="https://example.com/pr/1")
            session.add(ev)
            session.flush()
            validation = CheckpointValidation(
                checkpoint="lab-add", requested_by=root.id, files={}, checks=[]
            )
            session.add(validation)
            session.flush()
            zoe = session.merge(User(name="zoe", role="student"))
            session.flush()
            invite = signin.issue_invite(session, zoe, get_settings())
            tid = users_repository.tokens_of(session, ann.id)[0].id
            regrade = Regrade(
                checkpoint=CK, scope="checkpoint", version="0" * 64, requested_by=root.id, total=1
            )
            session.add(regrade)
            version, files = versions.of_folder(checkpoints.get(get_settings(), CK).folder)
            versions.keep(session, CK, version, files)
            session.flush()
            ids = {"sid": sub.id, "eid": ev.id, "vid": validation.id, "tid": tid, "invite": invite}
            ids |= {"rid": regrade.id, "version": version}
        report = Path(service_env["KGRADE_HOME"]) / "reports" / str(ids["sid"])
        report.mkdir(parents=True, exist_ok=True)
        (report / "submission-full.ncu-rep").write_bytes(b"NCU")
        return {"tokens": tokens, **ids}

    return make


def _client(world: dict[str, Any], actor: str, web: bool) -> tuple[TestClient, dict[str, Any]]:
    from app.main import create_app

    client = TestClient(create_app(), follow_redirects=False, raise_server_exceptions=False)
    token = world["tokens"][actor]
    ctx = {
        "sid": world["sid"],
        "token": token or "not-a-token",
        "csrf": "no-session",
        "source": (Path(__file__).parents[2] / "reference_kernels/c3a_vector_add/reference.py")
        .read_text()
        .strip(),
    }
    if token and web:
        assert client.post("/signin", data=signin_form(client, {"token": token})).status_code == 303
        page = client.get("/submit").text
        match = re.search(r'name="csrf" value="([^"]+)"', page)
        assert match, "no CSRF token on the submit page"
        ctx["csrf"] = match.group(1)
    elif token:
        client.headers["Authorization"] = f"Bearer {token}"
    elif web:  # the sign-in form's own token, as a browser has it before signing in
        ctx["csrf"] = signin_form(client, {})["csrf"]
    return client, ctx


@pytest.mark.parametrize(("method", "path"), sorted(MATRIX), ids=lambda x: str(x))
def test_access(world, method: str, path: str) -> None:  # type: ignore[no-untyped-def]
    body, expected = MATRIX[(method, path)]
    wrong = []
    for actor, want in zip(ACTORS, expected, strict=True):
        w = world()
        client, ctx = _client(w, actor, web=not path.startswith("/api/"))
        url = path.format(
            submission_id=w["sid"],
            sid=w["sid"],
            evidence_id=w["eid"],
            eid=w["eid"],
            checkpoint_id=CK,
            checkpoint=CK,
            validation_id=w["vid"],
            vid=w["vid"],
            name="bob",
            action="disable",
            token_id=w["tid"],
            token=w["invite"],
            rid=w["rid"],
            regrade_id=w["rid"],
            version=w["version"],
        )
        r = client.request(method, url, **body(ctx))
        got: Expect = r.status_code
        if isinstance(want, tuple):
            where = r.headers.get("location", "")
            got = (r.status_code, want[1] if where.startswith(want[1]) else where)
        if got != want:
            wrong.append(f"{actor}: expected {want}, got {got} {r.text[:120]!r}")
    assert not wrong, f"{method} {path}\n" + "\n".join(wrong)

"""Every text a user sends has a size cap, stated in the OpenAPI schema (`maxLength`) and
enforced before anything is stored: by the API, by the pages and by the service behind both.
(An explanation had none: 20 MB were accepted, stored twice and rendered.)"""

# ruff: noqa: F811  (the service fixtures, imported)
from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.security.pages import sign_in
from tests.service.conftest import client, make_user, pg_url, service_env  # noqa: F401  (fixtures)

SOURCE = "import triton\n# a kernel\n"


def _strings(schema: dict[str, Any], spec: dict[str, Any], where: str) -> list[str]:
    """The paths of every string in `schema` that has no maxLength."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _strings(spec["components"]["schemas"][name], spec, f"{where}<{name}>")
    missing = []
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            missing += _strings(sub, spec, f"{where}|{i}")
    text = schema.get("type") == "string" and "enum" not in schema
    if text and "maxLength" not in schema and schema.get("format") not in ("date-time", "date"):
        missing.append(where)
    for name, prop in (schema.get("properties") or {}).items():
        missing += _strings(prop, spec, f"{where}.{name}")
    if isinstance(schema.get("additionalProperties"), dict):
        missing += _strings(schema["additionalProperties"], spec, f"{where}[value]")
        if "maxProperties" not in schema:
            missing.append(f"{where} (how many)")
    if isinstance(schema.get("items"), dict):
        missing += _strings(schema["items"], spec, f"{where}[]")
    return missing


def test_every_text_a_request_sends_has_a_max_length_in_the_schema() -> None:
    from app.main import create_app

    spec = create_app().openapi()
    missing: list[str] = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            body = (op.get("requestBody") or {}).get("content", {})
            for media in body.values():
                missing += _strings(media.get("schema", {}), spec, f"{method.upper()} {path}")
            for p in op.get("parameters", []):
                if p["in"] == "query":
                    missing += _strings(p.get("schema", {}), spec, f"{path}?{p['name']}")
    assert missing == [], missing


def _submissions() -> int:
    from app.db import transaction
    from app.models import Submission

    with transaction() as s:
        return int(s.scalar(select(func.count()).select_from(Submission)) or 0)


def test_an_explanation_over_its_cap_is_refused_before_it_is_stored(
    client: TestClient,
    make_user,
) -> None:  # type: ignore[no-untyped-def]
    from app.core.limits import MAX_EXPLANATION_BYTES

    ann = make_user("ann")
    body = {"checkpoint": "c3a-vector-add", "source": SOURCE}
    big = "é" * (MAX_EXPLANATION_BYTES // 2 + 1)  # under the cap in characters, over in bytes
    for text in ("x" * (20 * 1024 * 1024), "x" * (MAX_EXPLANATION_BYTES + 1), big):
        r = client.post("/api/submissions", headers=ann, json={**body, "explanation": text})
        assert r.status_code == 413, (r.status_code, r.text[:200])
        assert "explanation" in r.json()["error"]
    assert _submissions() == 0
    csrf = sign_in(client, ann)
    form = {**body, "csrf": csrf, "explanation": "x" * (MAX_EXPLANATION_BYTES + 1)}
    r = client.post("/submit", data=form, follow_redirects=False)
    assert r.status_code == 413 and "explanation" in r.text
    assert _submissions() == 0
    ok = client.post(
        "/api/submissions", headers=ann, json={**body, "explanation": "x" * MAX_EXPLANATION_BYTES}
    )
    assert ok.status_code == 201, ok.text
    assert _submissions() == 1


def test_the_service_holds_the_caps_behind_the_schema(service_env, make_user) -> None:  # type: ignore[no-untyped-def]
    from app.core.errors import Invalid, TooLarge
    from app.core.limits import MAX_EXPLANATION_BYTES, MAX_NOTE
    from app.db import transaction
    from app.models import User
    from app.settings import get_settings
    from app.submissions import grading_review, service

    make_user("ann")
    with transaction() as s:
        ann = s.query(User).filter_by(name="ann").one()
        with pytest.raises(TooLarge):
            service.submit(
                s, ann, "c3a-vector-add", SOURCE, "x" * (MAX_EXPLANATION_BYTES + 1), get_settings()
            )
        with pytest.raises(Invalid):
            grading_review.decide(s, 1, ann, True, "n" * (MAX_NOTE + 1))
    assert _submissions() == 0


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/submissions/evidence/1/decision", {"approve": False, "note": "n" * 2001}),
        ("/api/submissions/1/evidence", {"url": "https://x.org/" + "p" * 500}),
        ("/api/tokens", {"name": "t" * 101}),
        ("/api/users/import", {"csv": "name\nzed\n", "filename": "f" * 201}),
    ],
)
def test_long_texts_get_a_422(client: TestClient, make_user, path: str, body: dict) -> None:  # type: ignore[no-untyped-def,type-arg]
    prof = make_user("prof", "instructor")
    r = client.post(path, headers=prof, json=body)
    assert r.status_code == 422, r.text


def test_sign_in_fields_are_capped(client: TestClient) -> None:
    r = client.post("/signin", data={"login": "x" * 10_000, "password": "p"})
    assert r.status_code == 422
    r = client.post("/signin", data={"login": "ann", "password": "p" * 100_000})
    assert r.status_code == 422

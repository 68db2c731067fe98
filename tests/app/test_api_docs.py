"""The OpenAPI as /docs and /redoc show it: every operation with a summary of its own and its
error statuses, the bearer token as a security scheme, and pages whose assets kgrade serves
itself (nothing from a CDN). No database: the app is only built, and its static files read.
The pages rendering in Chromium with the network cut off: tests/web/test_api_docs.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.apisummaries import SUMMARIES
from app.main import create_app

APP = create_app()
SPEC: dict[str, Any] = APP.openapi()
OPERATIONS = [
    (method.upper(), path, op) for path, ops in SPEC["paths"].items() for method, op in ops.items()
]
OPEN = {("GET", "/api/health")}  # the one operation without a token


def _default_summary(op: dict[str, Any]) -> str:
    """What FastAPI would have titled it: the function's name, words capitalized."""
    name = op["operationId"].split("_api_")[0].rstrip("_")
    return name.replace("_", " ").title()


@pytest.mark.parametrize(
    ("method", "path", "op"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
def test_each_operation_has_a_summary_and_its_error_statuses(
    method: str, path: str, op: dict[str, Any]
) -> None:
    summary = op.get("summary", "")
    # FastAPI's own title keeps a trailing space for a name like `list_`: compared stripped
    default = _default_summary(op)
    assert summary.strip() and summary.strip() != default, f"{method} {path}: give it a summary"
    codes = set(op["responses"])
    assert "503" in codes  # the database may be down for any of them
    if op.get("parameters") or op.get("requestBody"):
        assert "422" in codes
    if (method, path) in OPEN:
        return  # /api/health's 503 is its own report, not an error body
    for code in codes - {"200", "201", "202"}:
        body = op["responses"][code]["content"]["application/json"]["schema"]
        assert body == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, code)
    assert op["security"] == [{"token": []}]
    assert "401" in codes


def test_no_summary_names_a_route_that_is_not_there() -> None:
    there = {(m, p) for m, p, _ in OPERATIONS}
    assert set(SUMMARIES) <= there, set(SUMMARIES) - there


def test_the_token_is_a_bearer_security_scheme() -> None:
    scheme = SPEC["components"]["securitySchemes"]["token"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert "/account" in scheme["description"]
    # no operation asks for the header as a plain parameter any more
    for _, _, op in OPERATIONS:
        assert all(p["name"].lower() != "authorization" for p in op.get("parameters", []))


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_load_only_what_kgrade_serves(page: str) -> None:
    client = TestClient(APP)
    html = client.get(page).text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    urls += re.findall(r"""(?:url|openapi_url|spec-url)\s*[:=]\s*["']([^"']+)["']""", html)
    assert urls, html
    assert not [u for u in urls if re.match(r"^(https?:)?//", u)], urls
    for u in {u for u in urls if u.startswith("/static/")}:
        r = client.get(u)
        assert r.status_code == 200 and len(r.content) > 500, u
    assert client.get("/openapi.json").json()["info"]["title"] == "kgrade"

"""Each API operation's one-line summary in the OpenAPI (and so in /docs and /redoc), by method
and path, for the routes that do not set `summary=` themselves (a route that does is not
listed here): FastAPI would otherwise title them from the function's name ("List", "Read").
Kept in one table, not on each route, so that adding them touched no router.
`tests/app/test_api_docs.py` fails on an operation with neither, and on an entry here that
names no route."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

SUMMARIES: dict[tuple[str, str], str] = {
    ("GET", "/api/health"): "The database, the broker and the workers seen",
    ("POST", "/api/submissions"): "Submit a kernel for grading",
    ("GET", "/api/submissions"): "List submissions (yours; instructors: everyone's, filtered)",
    ("GET", "/api/submissions/{submission_id}"): "Read a submission and its grade",
    ("POST", "/api/submissions/{submission_id}/override"): "Override a submission's level",
    ("POST", "/api/submissions/{submission_id}/explanation/decision"): (
        "Accept or refuse a submission's explanation"
    ),
    ("GET", "/api/submissions/{submission_id}/overrides"): "List a submission's level overrides",
    ("GET", "/api/submissions/{submission_id}/results"): "Every grading of a submission",
    ("POST", "/api/submissions/{submission_id}/evidence"): "Ask for level 4 with a link",
    ("POST", "/api/submissions/evidence/{evidence_id}/decision"): "Approve or decline level 4",
    ("GET", "/api/checkpoints"): "List the checkpoints",
    ("POST", "/api/checkpoints"): "Upload a checkpoint to validate and install (admins)",
    ("GET", "/api/checkpoints/{checkpoint_id}"): "Read a checkpoint",
    ("PATCH", "/api/checkpoints/{checkpoint_id}"): "Open or close a checkpoint (admins)",
    ("PUT", "/api/checkpoints/order"): "Set the course's order of checkpoints (admins)",
    ("GET", "/api/checkpoints/validations/{validation_id}"): "Follow a checkpoint's validation",
    ("GET", "/api/checkpoints/{checkpoint_id}/versions"): "A checkpoint's versions (staff)",
    ("GET", "/api/checkpoints/{checkpoint_id}/versions/{version}"): "One version's files (staff)",
    ("GET", "/api/checkpoints/{checkpoint_id}/deadline"): "A checkpoint's effective deadline",
    ("PUT", "/api/checkpoints/{checkpoint_id}/deadline"): "Set a checkpoint's deadline",
    ("DELETE", "/api/checkpoints/{checkpoint_id}/deadline"): "Clear a deadline set here",
    ("GET", "/api/leaderboard/{checkpoint}"): "The leaderboard, one board per GPU model",
    ("GET", "/api/export/{checkpoint}.csv"): "The grades as CSV, one line per student",
    ("GET", "/api/export.csv"): "The course's gradebook as CSV, one line per student",
    ("POST", "/api/regrades"): "Regrade submissions with the current checkpoint version",
    ("GET", "/api/regrades"): "List regrades (staff)",
    ("GET", "/api/regrades/{regrade_id}"): "Follow a regrade's progress",
    ("GET", "/api/users/me"): "Who this token belongs to",
    ("GET", "/api/users"): "List accounts (instructors)",
    ("POST", "/api/users/import"): "Import a roster CSV, all or nothing (instructors)",
    ("POST", "/api/users/{name}/disable"): "Disable an account",
    ("POST", "/api/users/{name}/enable"): "Enable an account",
    ("POST", "/api/users/{name}/reset"): "Reset an account: a new invite link",
    ("GET", "/api/tokens"): "List your API tokens",
    ("POST", "/api/tokens"): "Make a named API token",
    ("DELETE", "/api/tokens/{token_id}"): "Revoke one of your API tokens",
}


def install(app: FastAPI) -> None:
    """Fill the summaries into the app's OpenAPI as it is built (once; FastAPI caches it)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        spec = build()
        for path, ops in spec.get("paths", {}).items():
            for method, op in ops.items():
                text = SUMMARIES.get((method.upper(), path))
                if text:
                    op["summary"] = text
        return spec

    app.openapi = openapi  # type: ignore[method-assign]

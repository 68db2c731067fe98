"""Errors over HTTP: one line of JSON for the API (`{"error": …}`), the error page for the
pages, never a traceback. The one place where a domain error (app/core/errors.py) gets its
status."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy.exc import DataError, OperationalError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core import errors as domain


class ApiError(Exception):
    """An error only the web layer raises (a missing token, a forged form), with its status."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


STATUS: dict[type[domain.DomainError], int] = {
    domain.Invalid: 400,
    domain.Forbidden: 403,
    domain.NotFound: 404,
    domain.Conflict: 409,
    domain.TooLarge: 413,
    domain.QuotaExceeded: 429,
    domain.Unavailable: 503,
}


def as_api_error(exc: domain.DomainError) -> ApiError:
    status = next(code for kind, code in STATUS.items() if isinstance(exc, kind))
    headers = (
        {"Retry-After": str(exc.retry_after)} if isinstance(exc, domain.QuotaExceeded) else None
    )
    return ApiError(status, exc.message, headers)


class ErrorOut(BaseModel):
    """Every 4xx/5xx of the API: one line of JSON (some add fields, e.g. a validation report)."""

    error: str


_MEANING = {
    400: "Bad input (empty source, bad link, bad checkpoint files, a NUL character).",
    401: "No bearer token, an unknown one, or a disabled account's.",
    403: "Your role may not do this.",
    404: "No such thing, or not yours to see.",
    409: "Not possible in its current state.",
    413: "The source is over 256 KiB, or the explanation over 64 KiB.",
    422: "The request does not match the schema.",
    429: "Over the hourly quota; Retry-After says when to try again.",
    503: "The database or the grading queue is unavailable; nothing was changed.",
}


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route or router: these error statuses, with their body."""
    return {c: {"model": ErrorOut, "description": _MEANING[c]} for c in codes}


ErrorPage = Callable[[Request, int, str], Response]


def install(app: FastAPI, error_page: ErrorPage) -> None:
    """The handlers: API paths answer JSON, pages answer `error_page(request, status, text)`."""

    @app.exception_handler(ApiError)
    @app.exception_handler(domain.DomainError)
    async def _known(request: Request, exc: Exception) -> Response:
        err = as_api_error(exc) if isinstance(exc, domain.DomainError) else exc
        assert isinstance(err, ApiError)
        if request.url.path.startswith("/api/"):
            body = {"error": err.message, **getattr(exc, "fields", {})}  # e.g. a roster's problems
            return JSONResponse(body, err.status, headers=err.headers)
        return error_page(request, err.status, err.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where or 'request'}: {first.get('msg', 'invalid')}"
        if request.url.path.startswith("/api/") or request.url.path == "/metrics":
            return JSONResponse({"error": message}, 422)
        return error_page(request, 422, message)  # a form's malformed field: the error page

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/") or exc.status_code in (404, 405):
            return JSONResponse({"error": str(exc.detail)}, exc.status_code, headers=exc.headers)
        return error_page(request, exc.status_code, str(exc.detail))  # e.g. a form over 1 MiB

    @app.exception_handler(OperationalError)
    async def _db_down(_: Request, exc: OperationalError) -> JSONResponse:
        return JSONResponse(
            {"error": "the database is unavailable; nothing was changed, try again shortly"}, 503
        )

    @app.exception_handler(DataError)
    async def _bad_value(_: Request, exc: DataError) -> JSONResponse:
        # The value itself cannot be stored or compared (PostgreSQL text holds no NUL byte).
        return JSONResponse(
            {"error": "a value the database cannot hold (a NUL character?); nothing was changed"},
            400,
        )

    @app.exception_handler(SQLAlchemyError)
    async def _db(_: Request, exc: SQLAlchemyError) -> JSONResponse:
        return JSONResponse({"error": "database error; nothing was changed"}, 500)

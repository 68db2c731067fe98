"""API errors: one line of JSON, never a traceback."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DataError, OperationalError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


class ErrorOut(BaseModel):
    """Every 4xx/5xx of the API: one line of JSON (some add fields, e.g. a validation report)."""

    error: str


_MEANING = {
    400: "Bad input (empty source, bad link, bad checkpoint files, a NUL character).",
    401: "No bearer token, or an unknown one.",
    403: "Your role may not do this.",
    404: "No such thing, or not yours to see.",
    409: "Not possible in its current state.",
    413: "The source is over 256 KiB.",
    422: "The request does not match the schema (or, for a checkpoint, did not validate).",
    429: "Over the hourly quota; Retry-After says when to try again.",
    503: "The database or the grading queue is unavailable; nothing was changed.",
}


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route or router: these error statuses, with their body."""
    return {c: {"model": ErrorOut, "description": _MEANING[c]} for c in codes}


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return JSONResponse({"error": f"{where or 'request'}: {first.get('msg', 'invalid')}"}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, exc.status_code, headers=exc.headers)

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

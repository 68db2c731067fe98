"""The pages' Jinja2 templates, and rendering one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from grader import untrusted

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")


def _shown(value: Any) -> Any:
    """Each `{{ value }}`: a string's control characters shown escaped, as in the terminal
    report (grader/text.py), then HTML-escaped; markup the page made itself is left alone."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return untrusted(value, lines=True)
    return value


templates.env.finalize = _shown


def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, ctx, status_code=status)


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return page(request, "error.html", status, user=None, error=message)

"""The API's documentation pages, /docs (Swagger UI) and /redoc, from assets kgrade serves
itself (app/web/static/apidocs/, vendored with their licences): no CDN, so they work on a
host without internet. FastAPI's own pages load them from a CDN; `create_app` turns those off."""

from __future__ import annotations

import secrets

from fastapi import APIRouter
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse

from app.web.headers import policy

router = APIRouter(include_in_schema=False)
ASSETS = "/static/apidocs"


def _nonced(page: HTMLResponse, workers: bool = False) -> HTMLResponse:
    """The page's inline start-up script allowed by a nonce of its own (headers.py)."""
    nonce = secrets.token_urlsafe(16)
    body = bytes(page.body).decode().replace("<script>", f'<script nonce="{nonce}">')
    return HTMLResponse(body, headers={"Content-Security-Policy": policy(nonce, workers)})


@router.get("/docs")
def swagger_ui() -> HTMLResponse:
    return _nonced(
        get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="kgrade API",
            swagger_js_url=f"{ASSETS}/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/swagger-ui/favicon-32x32.png",
            oauth2_redirect_url=None,
            swagger_ui_parameters={"persistAuthorization": False},
        )
    )


@router.get("/redoc")
def redoc() -> HTMLResponse:
    return _nonced(
        get_redoc_html(
            openapi_url="/openapi.json",
            title="kgrade API",
            redoc_js_url=f"{ASSETS}/redoc/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS}/swagger-ui/favicon-32x32.png",
            with_google_fonts=False,
        ),
        workers=True,
    )

"""The FastAPI application: the JSON API by domain (OpenAPI at /docs) and the pages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from app import apisummaries, errors
from app.checkpoints.router import router as checkpoints_api
from app.deadlines.router import router as deadlines_api
from app.health.router import router as health_api
from app.jobs.celery_app import celery_app
from app.leaderboard.router import router as leaderboard_api
from app.metrics.router import router as metrics_api
from app.regrades.router import router as regrades_api
from app.similarity.router import router as similarity_api
from app.submissions.router import router as submissions_api
from app.users.router import router as users_api
from app.web import apidocs
from app.web import checkpoints as checkpoint_pages
from app.web import deadlines as deadline_pages
from app.web import explanations as explanation_pages
from app.web import home as home_pages
from app.web import leaderboard as leaderboard_pages
from app.web import regrades as regrade_pages
from app.web import roster as roster_pages
from app.web import similarity as similarity_pages
from app.web import submissions as submission_pages
from app.web import users as user_pages
from app.web.auth import NotSignedIn
from app.web.headers import SecurityHeaders
from app.web.templating import HERE, error_page

API = (
    health_api,
    submissions_api,
    checkpoints_api,
    deadlines_api,
    leaderboard_api,
    users_api,
    similarity_api,
    regrades_api,
)
PAGES = (
    home_pages,
    user_pages,
    roster_pages,
    submission_pages,
    leaderboard_pages,
    checkpoint_pages,
    deadline_pages,
    similarity_pages,
    apidocs,
    regrade_pages,
    explanation_pages,
)


@asynccontextmanager
async def _started(_: FastAPI) -> AsyncIterator[None]:
    """Before the first request: the Celery application, built once (no request races to)."""
    celery_app()
    yield


def create_app() -> FastAPI:
    app = FastAPI(
        lifespan=_started,
        title="kgrade",
        version="0.1.0",
        description="Auto-grading of Triton kernels against PyTorch.",
        # /docs and /redoc: our own pages, on vendored assets (app/web/apidocs.py)
        docs_url=None,
        redoc_url=None,
    )
    errors.install(app, error_page)
    for r in API:
        app.include_router(r)
    for pages in PAGES:
        app.include_router(pages.router)
    app.include_router(metrics_api)
    apisummaries.install(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(NotSignedIn)
    async def _signin(_: Request, __: NotSignedIn) -> RedirectResponse:
        return RedirectResponse("/signin", 303)

    return app


app = create_app()

"""The FastAPI application: JSON API by domain, OpenAPI at /docs."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from app import errors, health
from app.checkpoints.router import router as checkpoints_router
from app.errors import ApiError
from app.leaderboard.router import router as leaderboard_router
from app.submissions.router import router as submissions_router
from app.web import router as web


def create_app() -> FastAPI:
    app = FastAPI(
        title="kgrade",
        version="0.1.0",
        description="Auto-grading of Triton kernels against PyTorch.",
    )
    errors.install(app)
    for r in (health.router, submissions_router, checkpoints_router, leaderboard_router):
        app.include_router(r)
    app.include_router(web.router)
    app.mount("/static", StaticFiles(directory=web.HERE / "static"), name="static")

    @app.exception_handler(ApiError)
    async def _api_or_page(request: Request, exc: ApiError) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.message}, exc.status, headers=exc.headers)
        return web.templates.TemplateResponse(
            request, "error.html", {"user": None, "error": exc.message}, status_code=exc.status
        )

    @app.exception_handler(web.NotSignedIn)
    async def _signin(_: Request, __: web.NotSignedIn) -> RedirectResponse:
        return RedirectResponse("/signin", 303)

    return app


app = create_app()

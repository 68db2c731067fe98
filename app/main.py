"""The FastAPI application: JSON API by domain, OpenAPI at /docs."""

from __future__ import annotations

from fastapi import FastAPI

from app import errors, health
from app.checkpoints.router import router as checkpoints_router
from app.leaderboard.router import router as leaderboard_router
from app.submissions.router import router as submissions_router


def create_app() -> FastAPI:
    app = FastAPI(
        title="kgrade",
        version="0.1.0",
        description="Auto-grading of Triton kernels against PyTorch.",
    )
    errors.install(app)
    for r in (health.router, submissions_router, checkpoints_router, leaderboard_router):
        app.include_router(r)
    return app


app = create_app()

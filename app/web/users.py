"""Signing in and out of the pages."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.deps import SessionDep
from app.users import service as users
from app.web import session
from app.web.auth import NotSignedIn, signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


@router.get("/")
def home(request: Request, db: SessionDep) -> Response:
    try:
        signed_in(request, db)
    except NotSignedIn:
        return RedirectResponse("/signin", 303)
    return RedirectResponse("/submit", 303)


@router.get("/signin")
def signin_page(request: Request) -> HTMLResponse:
    return page(request, "signin.html", user=None)


@router.post("/signin")
def signin(request: Request, db: SessionDep, token: Annotated[str, Form()] = "") -> Response:
    user = users.by_token(db, token.strip())
    if user is None:
        return page(request, "signin.html", 401, user=None, error="That token is not valid.")
    resp = RedirectResponse("/submit", 303)
    session.start(resp, user.id)
    return resp


@router.post("/signout")
def signout() -> Response:
    resp = RedirectResponse("/signin", 303)
    session.end(resp)
    return resp

"""Accounts over the API: who am I, the roster (staff), disable/enable/reset (staff), and a
user's own named tokens."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.deps import CurrentUser, Filter, RowId, SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import Role, User
from app.settings import Settings
from app.users import roster, service, tokens
from app.users.schemas import (
    InviteOut,
    MeOut,
    RosterIn,
    RosterOut,
    TokenCreated,
    TokenIn,
    TokenOut,
    UserOut,
)
from app.users.signin import invite_link

router = APIRouter(tags=["users"], responses=documented(401, 422, 503))


def base_url(request: Request, s: Settings) -> str:
    """Where invite links point: KGRADE_PUBLIC_URL, else the address this request came to."""
    return s.public_url or str(request.base_url)


@router.get("/api/users/me", response_model=MeOut)
def me(user: CurrentUser) -> MeOut:
    return MeOut(name=user.name, role=user.role, email=user.email, section=user.section)


@router.get("/api/users", response_model=list[UserOut], responses=documented(403))
def list_(
    session: SessionDep,
    user: User = Staff,
    section: Filter = None,
    role: Role | None = None,
) -> list[UserOut]:
    return [UserOut(**vars(r)) for r in service.listed(session, user, section, role)]


@router.post("/api/users/import", response_model=RosterOut, responses=documented(400, 403))
def import_roster(
    body: RosterIn, request: Request, session: SessionDep, s: SettingsDep, user: User = Staff
) -> RosterOut:
    """All or nothing: a 400 lists every bad row with its line (`problems`)."""
    imported = roster.run(session, user, body.csv, s, body.filename)
    return roster.summary(imported, base_url(request, s), s)


def _out(session: SessionDep, u: User) -> UserOut:
    return UserOut(**vars(service.row(session, u)))


@router.post(
    "/api/users/{name}/disable", response_model=UserOut, responses=documented(403, 404, 409)
)
def disable(name: str, session: SessionDep, user: User = Staff) -> UserOut:
    return _out(session, service.set_disabled(session, user, name, True))


@router.post("/api/users/{name}/enable", response_model=UserOut, responses=documented(403, 404))
def enable(name: str, session: SessionDep, user: User = Staff) -> UserOut:
    return _out(session, service.set_disabled(session, user, name, False))


@router.post(
    "/api/users/{name}/reset", response_model=InviteOut, responses=documented(403, 404, 409)
)
def reset(
    name: str, request: Request, session: SessionDep, s: SettingsDep, user: User = Staff
) -> InviteOut:
    """The password, every token and session revoked; a new one-time invite link."""
    target, token = service.reset(session, user, name, s)
    link = invite_link(base_url(request, s), token)
    return InviteOut(name=target.name, invite_url=link, invite_hours=s.invite_hours)


@router.get("/api/tokens", response_model=list[TokenOut])
def my_tokens(user: CurrentUser, session: SessionDep) -> list[TokenOut]:
    return [
        TokenOut(id=t.id, name=t.name, created_at=t.created_at)
        for t in tokens.listed(session, user)
    ]


@router.post(
    "/api/tokens", status_code=201, response_model=TokenCreated, responses=documented(400, 409)
)
def new_token(body: TokenIn, user: CurrentUser, session: SessionDep) -> TokenCreated:
    t, text = tokens.create(session, user, body.name)
    return TokenCreated(id=t.id, name=t.name, created_at=t.created_at, token=text)


@router.delete("/api/tokens/{token_id}", response_model=TokenOut, responses=documented(404))
def revoke_token(token_id: RowId, user: CurrentUser, session: SessionDep) -> TokenOut:
    t = tokens.revoke(session, user, token_id)
    return TokenOut(id=t.id, name=t.name, created_at=t.created_at)

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class MeOut(BaseModel):
    name: str
    role: str
    email: str | None
    section: str | None


class UserOut(BaseModel):
    name: str
    email: str | None
    role: str
    section: str | None
    state: str = Field(description="active, invited (no password yet) or disabled")
    tokens: int


class RosterIn(BaseModel):
    csv: str = Field(
        description="the roster: a header naming its columns (name; any of email, role, "
        "section), then a row per person",
        max_length=1024 * 1024,
    )
    filename: str = Field("roster.csv", max_length=200, description="named in the messages")


class ImportedOut(BaseModel):
    line: int
    name: str
    role: str
    section: str | None
    status: str = Field(description="created, updated or unchanged")
    invite_url: str | None = Field(None, description="a new account's one-time link")
    notes: list[str]


class RosterOut(BaseModel):
    created: int
    updated: int
    unchanged: int
    invite_hours: float = Field(description="how long the links stay valid")
    rows: list[ImportedOut]


class InviteOut(BaseModel):
    name: str
    invite_url: str
    invite_hours: float


class TokenIn(BaseModel):
    name: str = Field(min_length=1, max_length=100, description="e.g. laptop")


class TokenOut(BaseModel):
    id: int
    name: str
    created_at: datetime


class TokenCreated(TokenOut):
    token: str = Field(description="shown this once; only its hash is kept")

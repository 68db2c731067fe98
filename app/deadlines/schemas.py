from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class DeadlineIn(BaseModel):
    """An instructor's deadline. A time without an offset is read in `timezone`."""

    opens: datetime | None = None
    due: datetime
    late_until: datetime | None = None
    policy: str = Field("refuse", max_length=16, description="refuse, or accept (and mark late)")
    timezone: str = Field("UTC", max_length=64, description="IANA zone the times are shown in")


class DeadlineOut(BaseModel):
    checkpoint: str
    # where it comes from: "instructor" (stored, overriding the definition's), "definition",
    # or "none" (then every time is null)
    source: str
    opens: datetime | None = None  # UTC
    due: datetime | None = None
    late_until: datetime | None = None
    policy: str | None = None
    timezone: str | None = None
    # the same times in the zone, with it: "2026-12-08 23:59 CET (Europe/Berlin)"
    shown: dict[str, str] = Field(default_factory=dict)

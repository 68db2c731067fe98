"""A checkpoint's deadline: when it opens, when it is due, and what happens to late work.

Plain data (pydantic), in `checkpoint.toml`'s `[deadline]` table or set by an instructor (the
service stores that in the database and it overrides the definition's). Every time is kept in
UTC; `timezone` is only the zone the times are shown in, and the zone a time written without
an offset is read in.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, model_validator


class LatePolicy(StrEnum):
    REFUSE = "refuse"  # after the due time, nothing is admitted
    ACCEPT = "accept"  # admitted and marked late (until `late_until`, where set)


class Admission(StrEnum):
    NOT_OPEN = "not_open"
    ON_TIME = "on_time"
    LATE = "late"
    PAST = "past"  # past the due time (refuse) or past the late window (accept)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r} (an IANA name, e.g. Europe/Berlin)") from exc


class DeadlineSpec(BaseModel):
    """`opens` (optional), `due`, and after it either nothing (`policy = "refuse"`) or late
    work accepted and marked late (`policy = "accept"`), until `late_until` where set."""

    opens: datetime | None = Field(default=None, description="no submission before this")
    due: datetime = Field(description="submissions after this are late (or refused)")
    late_until: datetime | None = Field(
        default=None, description="with policy 'accept': late work accepted until this"
    )
    policy: LatePolicy = LatePolicy.REFUSE
    timezone: str = Field(default="UTC", description="IANA zone the times are shown in")

    @model_validator(mode="after")
    def _in_utc_and_ordered(self) -> DeadlineSpec:
        tz = zone(self.timezone)

        def utc(t: datetime | None) -> datetime | None:
            if t is None:
                return None
            try:
                return (t if t.tzinfo else t.replace(tzinfo=tz)).astimezone(UTC)
            except OverflowError as exc:
                raise ValueError(f"deadline: {t.isoformat()} is out of range in UTC") from exc

        # assigned through __dict__: validate_assignment would run this validator again
        self.__dict__.update(opens=utc(self.opens), due=utc(self.due))
        self.__dict__["late_until"] = utc(self.late_until)
        if self.opens is not None and self.opens >= self.due:
            raise ValueError("deadline: opens must be before due")
        if self.late_until is not None:
            if self.policy is not LatePolicy.ACCEPT:
                raise ValueError("deadline: late_until needs policy = 'accept'")
            if self.late_until <= self.due:
                raise ValueError("deadline: late_until must be after due")
        return self

    def admission(self, at: datetime) -> Admission:
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        if self.opens is not None and at < self.opens:
            return Admission.NOT_OPEN
        if at <= self.due:
            return Admission.ON_TIME
        if self.policy is LatePolicy.ACCEPT and (self.late_until is None or at <= self.late_until):
            return Admission.LATE
        return Admission.PAST

    def is_late(self, at: datetime) -> bool:
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        return at > self.due

    def shown(self, t: datetime) -> str:
        """A time in the deadline's zone, with the zone: '2026-12-08 23:59 CET (Europe/Berlin)'."""
        local = (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(zone(self.timezone))
        return f"{local:%Y-%m-%d %H:%M} {local.tzname()}" + (
            f" ({self.timezone})" if self.timezone != "UTC" else ""
        )

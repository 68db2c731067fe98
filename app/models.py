"""The ORM models, in one place."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base


def now() -> datetime:
    return datetime.now(UTC)


class Role(StrEnum):
    STUDENT = "student"
    INSTRUCTOR = "instructor"
    ADMIN = "admin"


class Status(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Stage(StrEnum):
    PRECHECK = "precheck"
    GPU = "gpu"
    DONE = "done"


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20), default=Role.STUDENT)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Submission(Base):
    __tablename__ = "submissions"
    __table_args__ = (
        Index("ix_submissions_user_checkpoint_created", "user_id", "checkpoint", "created_at"),
        Index("ix_submissions_status_lease", "status", "lease_expires_at"),
        Index("ix_submissions_checkpoint_level", "checkpoint", "level"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    checkpoint: Mapped[str] = mapped_column(String(100))
    source: Mapped[str] = mapped_column(Text)
    explanation: Mapped[str | None] = mapped_column(Text, nullable=True)
    status: Mapped[str] = mapped_column(String(10), default=Status.QUEUED)
    stage: Mapped[str] = mapped_column(String(10), default=Stage.PRECHECK)
    # Claiming: compare-and-set on (status, stage, attempts); a lease renewed by a heartbeat.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    enqueued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The outcome, with the fields leaderboards sort on pulled out of the full result.
    verdict: Mapped[str | None] = mapped_column(String(20), nullable=True)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    speedup: Mapped[float | None] = mapped_column(Float, nullable=True)
    gpu_model: Mapped[str | None] = mapped_column(String(50), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    user: Mapped[User] = relationship()


class Standing(Base):
    """A student's best graded submission to a checkpoint on one GPU model ('cpu': none).

    Written only by the database's triggers on `submissions` (migration 2026_11_29_2110), in
    the same transaction as the submission's change; the app reads it for the leaderboard."""

    __tablename__ = "standings"

    checkpoint: Mapped[str] = mapped_column(String(100), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    gpu_model: Mapped[str] = mapped_column(String(50), primary_key=True)
    submission_id: Mapped[int] = mapped_column(Integer)
    level: Mapped[int] = mapped_column(Integer)
    speedup: Mapped[float | None] = mapped_column(Float, nullable=True)
    submissions: Mapped[int] = mapped_column(Integer)  # all of the student's, to the checkpoint


class LevelOverride(Base):
    """An instructor's change of a submission's level: who, when, why."""

    __tablename__ = "level_overrides"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    instructor_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    old_level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    new_level: Mapped[int] = mapped_column(Integer)
    note: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class WorkerSeen(Base):
    """Each worker process reports itself here every few seconds: /api/health reads it, so it
    works the same with Redis and with the embedded broker."""

    __tablename__ = "workers"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    queues: Mapped[str] = mapped_column(String(500))
    gpu: Mapped[str | None] = mapped_column(String(200), nullable=True)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class EvidenceStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    DECLINED = "declined"


class Evidence(Base):
    """Level 4: a student's link to a contribution (a merged kernel PR, a GPU MODE leaderboard
    entry) attached to a level-3 submission, decided by an instructor."""

    __tablename__ = "evidence"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    url: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(10), default=EvidenceStatus.PENDING)
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

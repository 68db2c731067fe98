"""The ORM models, in one place, with every index the migrations create (`alembic check` is
clean on PostgreSQL and SQLite: tests/service/test_schema.py).

What is not here: the triggers on `submissions` that keep `standings` (migration
2026_11_29_2110-standings.py). Alembic does not compare triggers, so they live only there.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, UTCDateTime


def now() -> datetime:
    return datetime.now(UTC)


def postgresql_only(index: Index) -> Index:
    """An index that only PostgreSQL has (SQLite has no INCLUDE, no partial expression index
    of this kind): created there only, and compared by `alembic check` there only
    (migrations/env.py reads `info["dialect"]`)."""
    index.info["dialect"] = "postgresql"
    return index.ddl_if(dialect="postgresql")


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


class Leased:
    """The columns of a row a worker takes (app/leases.py): queued → running → done, the
    attempt number, who holds it and until when (a lease renewed by a heartbeat)."""

    status: Mapped[str] = mapped_column(String(10), default=Status.QUEUED)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    enqueued_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class User(Base):
    """An account: made by `kgrade users add` or a roster import (app/users/roster.py); signs
    in with a password set through a one-time invite link, uses the API with named tokens."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20), default=Role.STUDENT)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    email: Mapped[str | None] = mapped_column(String(254), unique=True, nullable=True)
    # A course's section or group (from the roster), for filtering boards.
    section: Mapped[str | None] = mapped_column(String(100), nullable=True, index=True)
    # argon2id (app/core/security.py); None until the invite link is used.
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # A disabled user can neither sign in nor use a token nor a session made before.
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # In every session cookie; bumped by a reset, a disable or a new password, which ends the
    # sessions made before.
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ApiToken(Base):
    """A named bearer token of a user, for the CLI: shown once, stored as its SHA-256."""

    __tablename__ = "api_tokens"
    __table_args__ = (UniqueConstraint("user_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class Invite(Base):
    """A one-time link that sets a user's password: stored as its SHA-256, used once, expiring
    (KGRADE_INVITE_HOURS). A reset replaces the user's unused ones."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class SigninFailure(Base):
    """A failed password sign-in, kept for the brute-force limits (per account, per address,
    over KGRADE_SIGNIN_WINDOW_MINUTES); an account's are cleared when it signs in."""

    __tablename__ = "signin_failures"
    __table_args__ = (
        Index("ix_signin_failures_user_at", "user_id", "at"),
        Index("ix_signin_failures_address_at", "address", "at"),
        Index("ix_signin_failures_login_at", "login", "at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True
    )
    address: Mapped[str] = mapped_column(String(64))
    # what the per-account limit counts: "user:<id>" for an account, "name:<login>" for a
    # name (or email) no account has, so that an unknown name is limited like a known one
    login: Mapped[str | None] = mapped_column(String(300), nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class WebSession(Base):
    """A browser's session, server-side: the cookie names it by a random id (kept only as its
    SHA-256); signing out ends it, and so do a reset, a disable or a new password (the user's
    session_version), and its expiry."""

    __tablename__ = "web_sessions"
    __table_args__ = (Index("ix_web_sessions_user_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    id_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class Submission(Leased, Base):
    __tablename__ = "submissions"
    __table_args__ = (
        Index("ix_submissions_user_checkpoint_created", "user_id", "checkpoint", "created_at"),
        Index("ix_submissions_status_lease", "status", "lease_expires_at"),
        Index("ix_submissions_checkpoint_level", "checkpoint", "level"),
        Index("ix_submissions_user_id", "user_id", "id"),
        # The leaderboard's window in index order, index-only (migration 2026_11_29_2040).
        postgresql_only(
            Index(
                "ix_submissions_leaderboard",
                "checkpoint",
                "user_id",
                text("coalesce(gpu_model, 'cpu')"),
                text("level DESC"),
                text("speedup DESC NULLS LAST"),
                "id",
                postgresql_include=["gpu_model"],
                postgresql_where=text("status = 'done' AND level IS NOT NULL"),
            )
        ),
        # Submissions per student of a checkpoint (the CSV export), index-only.
        postgresql_only(
            Index(
                "ix_submissions_checkpoint_user",
                "checkpoint",
                "user_id",
                postgresql_include=["status", "level", "speedup", "created_at", "late"],
            )
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    checkpoint: Mapped[str] = mapped_column(String(100))
    source: Mapped[str] = mapped_column(Text)
    explanation: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Claimed by compare-and-set on (status, stage, attempts) (Leased); the stage it waits for.
    stage: Mapped[str] = mapped_column(String(10), default=Stage.PRECHECK)
    # The outcome, with the fields leaderboards sort on pulled out of the full result.
    verdict: Mapped[str | None] = mapped_column(String(20), nullable=True)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    speedup: Mapped[float | None] = mapped_column(Float, nullable=True)
    gpu_model: Mapped[str | None] = mapped_column(String(50), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # Admitted after the checkpoint's due time (app/deadlines); set again when it moves.
    late: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # The checkpoint version (app/checkpoints/versions.py) that graded the current result, the
    # current result's row in `grading_results`, and the regrade it is queued for, if any.
    checkpoint_version: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # (No foreign keys: SQLite adds a column with one only by rebuilding the table, which
    # would drop the standings triggers.)
    result_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    regrade_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)

    user: Mapped[User] = relationship()


class CheckpointVersion(Base):
    """A checkpoint's files as they were when they graded something (or were installed): its
    version is their content hash, so the files of every version that graded a result stay
    readable after the checkpoint changes."""

    __tablename__ = "checkpoint_versions"
    __table_args__ = (UniqueConstraint("checkpoint", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    checkpoint: Mapped[str] = mapped_column(String(100))
    version: Mapped[str] = mapped_column(String(64))
    files: Mapped[dict[str, str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class Regrade(Base):
    """An instructor's regrade of one submission, one student's or all of a checkpoint's: the
    submissions go through the queue again; progress is how many have a result of it."""

    __tablename__ = "regrades"

    id: Mapped[int] = mapped_column(primary_key=True)
    checkpoint: Mapped[str] = mapped_column(String(100), index=True)
    scope: Mapped[str] = mapped_column(String(20))  # submission, student or checkpoint
    target: Mapped[str | None] = mapped_column(String(100), nullable=True)
    version: Mapped[str] = mapped_column(String(64))  # the checkpoint version asked for
    requested_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    total: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    # The override in force on each submission's earlier result is carried to its new result,
    # unless the instructor asked to clear them.
    carry_overrides: Mapped[bool] = mapped_column(
        Boolean, default=True, server_default=text("true")
    )


class GradingResult(Base):
    """Every finished grading of a submission, kept forever (a regrade adds one): the current
    one is the submission's `result_id`, the newest."""

    __tablename__ = "grading_results"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    checkpoint_version: Mapped[str | None] = mapped_column(String(64), nullable=True)
    regrade_id: Mapped[int | None] = mapped_column(
        ForeignKey("regrades.id"), nullable=True, index=True
    )
    verdict: Mapped[str | None] = mapped_column(String(20), nullable=True)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    speedup: Mapped[float | None] = mapped_column(Float, nullable=True)
    gpu_model: Mapped[str | None] = mapped_column(String(50), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class Scope(StrEnum):
    """Which of a student's submissions a standing ranks."""

    ON_TIME = "on_time"  # those admitted by the due time (the boards' default)
    ALL = "all"  # late ones too (?late=include)


class Standing(Base):
    """A student's best graded submission to a checkpoint on one GPU model ('cpu': none),
    of their on-time submissions and of all of them (`scope`).

    Written only by the database's triggers on `submissions` (migration 2026_11_29_2110, then
    2026_12_01_1200 for the scope), in the same transaction as the submission's change; the
    app reads it for the leaderboard."""

    __tablename__ = "standings"

    checkpoint: Mapped[str] = mapped_column(String(100), primary_key=True)
    scope: Mapped[str] = mapped_column(String(8), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    gpu_model: Mapped[str] = mapped_column(String(50), primary_key=True)
    submission_id: Mapped[int] = mapped_column(Integer)
    level: Mapped[int] = mapped_column(Integer)
    speedup: Mapped[float | None] = mapped_column(Float, nullable=True)
    submissions: Mapped[int] = mapped_column(Integer)  # all of the student's, to the checkpoint


# The leaderboard reads a board in this order (on SQLite without NULLS LAST, which an SQLite
# index cannot say; the comparison there is by column).
Index(
    "ix_standings_rank",
    Standing.checkpoint,
    Standing.scope,
    Standing.gpu_model,
    Standing.level.desc(),
    Standing.speedup.desc().nulls_last(),
    Standing.submission_id,
)


class CheckpointDeadline(Base):
    """An instructor's deadline of a checkpoint, overriding its definition's (times in UTC;
    `timezone` is the zone they are shown in)."""

    __tablename__ = "checkpoint_deadlines"

    checkpoint: Mapped[str] = mapped_column(String(100), primary_key=True)
    opens_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    due_at: Mapped[datetime] = mapped_column(UTCDateTime())
    late_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    policy: Mapped[str] = mapped_column(String(10))
    timezone: Mapped[str] = mapped_column(String(64))
    set_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    set_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class LevelOverride(Base):
    """An instructor's change of a submission's level: who, when, why."""

    __tablename__ = "level_overrides"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    instructor_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    old_level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    new_level: Mapped[int] = mapped_column(Integer)
    note: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    # The result it was made on (the submission's result_id then): a regrade's new result
    # starts without it, and it stays in the history with the result it changed.
    result_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # A regrade's copy of the override in force on the earlier result: the one copied.
    carried_from: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # An instructor's word on the explanation, apart from the kernel ("accepted" or
    # "refused"): the level is then the rubric's with that word (grader/judge/recheck.decided),
    # worked out again on a regrade's new result. None: a plain change of level.
    explanation: Mapped[str | None] = mapped_column(String(10), nullable=True)


class WorkerSeen(Base):
    """Each worker process reports itself here every few seconds: /api/health reads it, so it
    works the same with Redis and with the embedded broker."""

    __tablename__ = "workers"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    queues: Mapped[str] = mapped_column(String(500))
    gpu: Mapped[str | None] = mapped_column(String(200), nullable=True)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    # A GPU worker's Nsight Compute check at its start (grader.check_ncu): whether it can read
    # the counters (level 3 needs them), and what it found; None: not a GPU worker, or not yet
    # known (the check runs beside the worker's first gradings).
    can_profile: Mapped[bool | None] = mapped_column(nullable=True)
    profiling: Mapped[str | None] = mapped_column(String(500), nullable=True)


class GradingEvent(Base):
    """What happened to a submission's stage, one row per event, written in the transaction
    that made it happen: `graded` (a stage's result stored, with its verdict and the grader's
    seconds), `retry` (a claim beyond the first), `lease_expired` (the reconciler found its
    worker gone), `message_lost` (queued for longer than a lease), `gave_up` (out of
    attempts). Workers are other processes, often on other hosts: /metrics counts these rows
    at scrape time (app/metrics/), so every process's events are seen and none is lost on a
    restart. No foreign key: a log, never joined on the hot path."""

    __tablename__ = "grading_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    submission_id: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(10))
    kind: Mapped[str] = mapped_column(String(20))
    verdict: Mapped[str | None] = mapped_column(String(20), nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)
    # No index: a scrape aggregates the whole table (sequential scans, measured in
    # benchmarks/metrics_scrape.py), and an index would only cost every insert.


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
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=now)


class CheckpointValidation(Leased, Base):
    """An admin's checkpoint on its way in: the uploaded files (so that a worker on any host
    can validate them), the checks as each finishes, and the outcome. Claimed and leased like
    a submission, so that a lost message or a dead worker is taken up by the reconciler."""

    __tablename__ = "checkpoint_validations"
    __table_args__ = (
        Index("ix_checkpoint_validations_status_lease", "status", "lease_expires_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    checkpoint: Mapped[str] = mapped_column(String(100))
    requested_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # path in the checkpoint folder → text: checkpoint.toml, problem.py, solutions/wrong/x.py, …
    files: Mapped[dict[str, str]] = mapped_column(JSON)
    # The checks in their fixed order, null where one still runs (grader.validation.Check).
    checks: Mapped[list[dict[str, Any] | None]] = mapped_column(JSON, default=list)
    valid: Mapped[bool | None] = mapped_column(nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)

"""The database: engine, sessions and the declarative base with a naming convention.

One request or one task is one transaction: services flush, the boundary (a FastAPI dependency,
a worker task) commits.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import DateTime, Dialect, Engine, MetaData, TypeDecorator, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from app.settings import Settings, get_settings

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """A point in time, stored in UTC and always read back aware, in UTC, on every database.

    SQLite keeps no zone: SQLAlchemy writes an aware time's wall clock without its offset and
    reads a naive time back, which code downstream would read in some other zone (a deadline
    read in its own zone was off by that zone's offset). So every time is turned to UTC before
    it is written (a naive one is taken to be UTC already) and given UTC when read."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# Connections per process: the API lets at most this many requests use the database at once
# (app.deps.db_slot), fewer than its threads, so that none waits for a connection in a thread.
# All of them stay open: no overflow. With 20 more beyond the pool's 10, each closed again as
# soon as it was handed back while 10 others were idle, a burst made the API open a new
# PostgreSQL session for about one request in four (107 for 400 posts from 64 students:
# tests/faults/test_api_connections.py), a backend forked and warmed each time, on the cores
# the API needs; throughput fell as clients were added (benchmarks/results/
# 2026-12-01-cpu-api-throughput.txt).
POOL_SIZE, MAX_OVERFLOW = 10, 0


def private_home(s: Settings | None = None) -> None:
    """The embedded default's home, 0700, and its databases, 0600 (they hold password and
    token hashes and every source): made so before SQLite or the broker creates them, and
    tightened if an older kgrade left them readable to others. (SQLite gives its -wal and
    -shm files the database's permissions.)"""
    s = s or get_settings()
    if not s.embedded:
        return
    s.home.mkdir(parents=True, exist_ok=True)
    os.chmod(s.home, 0o700)
    for name in ("kgrade.db", "broker.db"):
        path = s.home / name
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(path, 0o600)


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    if url.startswith("sqlite"):
        if url == get_settings().db_url:
            private_home()
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")  # the API and the worker share the file
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=MAX_OVERFLOW)


def engine() -> Engine:
    return engine_for(get_settings().db_url)


@lru_cache(maxsize=4)
def _sessionmaker(url: str) -> sessionmaker[Session]:
    return sessionmaker(engine_for(url), expire_on_commit=False)


def sessions() -> sessionmaker[Session]:
    """One factory per database URL: a sessionmaker builds a Session subclass and SQLAlchemy
    then sets up its event dispatch, which every request paid when made anew
    (docs/PERFORMANCE.md, section 1)."""
    return _sessionmaker(get_settings().db_url)


@contextmanager
def transaction() -> Iterator[Session]:
    """A session that commits on success and rolls back on error (workers, CLI)."""
    with sessions()() as session, session.begin():
        yield session

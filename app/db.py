"""The database: engine, sessions and the declarative base with a naming convention.

One request or one task is one transaction: services flush, the boundary (a FastAPI dependency,
a worker task) commits.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, MetaData, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from app.settings import get_settings

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


# Connections per process: the API lets at most this many requests use the database at once
# (app.deps.db_slot), fewer than its threads, so that none waits for a connection in a thread.
# All of them stay open: no overflow. With 20 more beyond the pool's 10, each closed again as
# soon as it was handed back while 10 others were idle, a burst made the API open a new
# PostgreSQL session for about one request in four (107 for 400 posts from 64 students:
# tests/faults/test_api_connections.py), a backend forked and warmed each time, on the cores
# the API needs; throughput fell as clients were added (benchmarks/results/
# 2026-12-01-cpu-api-throughput.txt).
POOL_SIZE, MAX_OVERFLOW = 10, 0


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    if url.startswith("sqlite"):
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

"""The deadlines migration (2026_12_01_1200) on PostgreSQL and SQLite: existing standings are
rebuilt in both scopes (every submission on time), the new triggers keep the on-time scope
apart from late work, and the downgrade gives back the one-scope standings and triggers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.service.conftest import new_database

BEFORE = "c4a7e91d2b60"  # roster, sign-in, tokens: standings without a scope


@pytest.fixture
def fresh_pg() -> Iterator[str]:
    with new_database("kgrade_mig") as url:
        yield url


def _insert(conn, level: int, speedup: float) -> None:  # type: ignore[no-untyped-def]
    conn.execute(
        text(
            "INSERT INTO submissions (user_id, checkpoint, source, status, stage, attempts, "
            "level, speedup, gpu_model, enqueued_at, created_at) SELECT id, 'c3a-softmax', 'x', "
            "'done', 'done', 0, :l, :s, 'h200', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP "
            "FROM users WHERE name = 'ann'"
        ),
        {"l": level, "s": speedup},
    )


def _standings(conn, scoped: bool = True) -> set[tuple]:  # type: ignore[no-untyped-def, type-arg]
    cols = "scope, level, speedup" if scoped else "level, speedup"
    return set(conn.execute(text(f"SELECT {cols} FROM standings")).all())


def _migrates(url: str) -> None:
    from alembic import command

    from app.cli.host import alembic_config
    from app.db import engine_for

    cfg = alembic_config(url)
    command.upgrade(cfg, BEFORE)
    engine = engine_for(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO users (name, role, created_at, session_version) "
                "VALUES ('ann', 'student', CURRENT_TIMESTAMP, 0)"
            )
        )
        _insert(conn, 3, 1.5)
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        assert _standings(conn) == {("on_time", 3, 1.5), ("all", 3, 1.5)}
        _insert(conn, 3, 2.5)
        conn.execute(text("UPDATE submissions SET late = true WHERE speedup = 2.5"))
        assert _standings(conn) == {("on_time", 3, 1.5), ("all", 3, 2.5)}
    command.downgrade(cfg, BEFORE)
    with engine.begin() as conn:
        assert _standings(conn, scoped=False) == {(3, 2.5)}
        _insert(conn, 3, 3.5)  # the old trigger is back
        assert _standings(conn, scoped=False) == {(3, 3.5)}
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        assert _standings(conn) == {("on_time", 3, 3.5), ("all", 3, 3.5)}


def test_the_deadlines_migration_on_postgresql(fresh_pg: str) -> None:
    _migrates(fresh_pg)


def test_the_deadlines_migration_on_sqlite(tmp_path: Path) -> None:
    _migrates(f"sqlite:///{tmp_path}/kgrade.db")

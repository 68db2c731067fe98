"""The accounts migration (2026_12_01_0934) carries every existing token over, so nobody's CLI
breaks, on PostgreSQL and on SQLite (where rebuilding `users` with foreign keys enforced
deleted the carried tokens: migrations/env.py turns them off while migrating); its downgrade
gives each user back their oldest token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.service.conftest import new_database

BEFORE = "8b3e6f2a4c17"  # checkpoint validations: users.token_hash, one token each


@pytest.fixture
def fresh_pg() -> Iterator[str]:
    with new_database("kgrade_mig") as url:
        yield url


def _carried_over(url: str) -> None:
    from alembic import command

    from app.cli.host import alembic_config
    from app.core.security import hash_token
    from app.db import engine_for
    from app.users import service

    cfg = alembic_config(url)
    command.upgrade(cfg, BEFORE)
    engine = engine_for(url)
    with engine.begin() as conn:
        for name, token in (("ann", "ann-old-token"), ("prof", "prof-old-token")):
            conn.execute(
                text(
                    "INSERT INTO users (name, role, token_hash, created_at) "
                    "VALUES (:n, 'student', :h, CURRENT_TIMESTAMP)"
                ),
                {"n": name, "h": hash_token(token)},
            )
        conn.execute(  # a user with a submission: SQLite rebuilds users under it
            text(
                "INSERT INTO submissions (user_id, checkpoint, source, status, stage, attempts, "
                "enqueued_at, created_at) SELECT id, 'c3a-softmax', 'x', 'done', 'done', 0, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM users WHERE name = 'ann'"
            )
        )
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM submissions")).scalar() == 1
    from sqlalchemy.orm import Session

    with Session(engine) as s:
        ann = service.by_token(s, "ann-old-token")
        assert ann is not None and ann.name == "ann" and service.is_active(ann)
        assert service.by_token(s, "prof-old-token").name == "prof"  # type: ignore[union-attr]
        names = s.execute(text("SELECT name FROM api_tokens ORDER BY id")).scalars().all()
        assert names == ["cli", "cli"]
        s.execute(
            text(
                "INSERT INTO api_tokens (user_id, name, token_hash, created_at) "
                "VALUES (:u, 'laptop', :h, CURRENT_TIMESTAMP)"
            ),
            {"u": ann.id, "h": hash_token("ann-new-token")},
        )
        s.commit()
    command.downgrade(cfg, BEFORE)
    with engine.begin() as conn:
        back = dict(conn.execute(text("SELECT name, token_hash FROM users")).all())
    assert back == {"ann": hash_token("ann-old-token"), "prof": hash_token("prof-old-token")}
    command.upgrade(cfg, "head")


def test_tokens_are_carried_over_on_postgresql(fresh_pg: str) -> None:
    _carried_over(fresh_pg)


def test_tokens_are_carried_over_on_sqlite(tmp_path: Path) -> None:
    _carried_over(f"sqlite:///{tmp_path}/kgrade.db")

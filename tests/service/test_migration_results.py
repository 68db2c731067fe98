"""The versions and regrades migration (2026_12_01_1200-checkpoint_versions_regrades_results)
keeps every result graded before it: each becomes its submission's first kept result, with the
level the grader gave it (an override's old level), and the overrides point at it; down and up
again, on PostgreSQL and on SQLite (where the standings triggers must survive)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.service.conftest import new_database

BEFORE = "3e8d1a6f5b24"  # deadlines: no grading_results yet


@pytest.fixture
def fresh_pg() -> Iterator[str]:
    with new_database("kgrade_mig") as url:
        yield url


def _results_kept(url: str) -> None:
    from alembic import command

    from app.cli.host import alembic_config
    from app.db import engine_for

    cfg = alembic_config(url)
    command.upgrade(cfg, BEFORE)
    engine = engine_for(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO users (name, role, created_at) VALUES ('ann', 'student', "
                "CURRENT_TIMESTAMP), ('prof', 'instructor', CURRENT_TIMESTAMP)"
            )
        )
        for level, status in ((2, "done"), (None, "queued")):  # graded, and one still queued
            conn.execute(
                text(
                    "INSERT INTO submissions (user_id, checkpoint, source, status, stage, "
                    "attempts, enqueued_at, created_at, verdict, level) VALUES (1, "
                    "'c3a-softmax', 'x', :st, 'done', 0, CURRENT_TIMESTAMP, "
                    "CURRENT_TIMESTAMP, :v, :l)"
                ),
                {"st": status, "v": "correct" if level else None, "l": level},
            )
        conn.execute(text("UPDATE submissions SET level = 1 WHERE id = 1"))  # an override
        conn.execute(
            text(
                "INSERT INTO level_overrides (submission_id, instructor_id, old_level, "
                "new_level, note, created_at) VALUES (1, 2, 2, 1, 'copied', CURRENT_TIMESTAMP)"
            )
        )
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        kept = conn.execute(text("SELECT id, submission_id, level FROM grading_results")).all()
        assert [tuple(r) for r in kept] == [(1, 1, 2)]  # the grader's level, not the override's
        current = conn.execute(text("SELECT id, result_id FROM submissions ORDER BY id")).all()
        assert [tuple(r) for r in current] == [(1, 1), (2, None)]
        assert conn.execute(text("SELECT result_id FROM level_overrides")).scalar() == 1
        board = conn.execute(text("SELECT user_id, level FROM standings")).all()
        assert {tuple(r) for r in board} == {(1, 1)}
        conn.execute(text("UPDATE submissions SET level = 3 WHERE id = 1"))  # triggers live
        assert conn.execute(text("SELECT max(level) FROM standings")).scalar() == 3
    command.downgrade(cfg, BEFORE)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM submissions")).scalar() == 2
        conn.execute(text("UPDATE submissions SET level = 2 WHERE id = 1"))
        assert conn.execute(text("SELECT max(level) FROM standings")).scalar() == 2
    command.upgrade(cfg, "head")


def test_results_are_kept_on_postgresql(fresh_pg: str) -> None:
    _results_kept(fresh_pg)


def test_results_are_kept_on_sqlite(tmp_path: Path) -> None:
    _results_kept(f"sqlite:///{tmp_path}/kgrade.db")

"""Alembic environment: the URL and metadata come from kgrade itself."""

from __future__ import annotations

from typing import Any

from alembic import context

from app import models  # noqa: F401  (registers the tables)
from app.db import Base, engine_for
from app.settings import get_settings

url = context.config.get_main_option("sqlalchemy.url") or get_settings().db_url
engine = engine_for(url)


def include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    """Compare an index declared for one dialect only (app.models.postgresql_only) only there."""
    only = getattr(obj, "info", {}).get("dialect")
    return only is None or only == engine.dialect.name


with engine.connect() as connection:
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:
        # Batch mode rebuilds a table (copy, drop, rename). With foreign keys enforced, the
        # DROP deletes its rows first, cascading to the rows that reference them (a user's
        # tokens) or failing on those that may not (their submissions): so off while
        # migrating, as Alembic advises, checked afterwards, and on again for the pool.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()  # no transaction open: the migrations begin their own
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=url.startswith("sqlite"),
        compare_type=True,
        include_object=include_object,
    )
    try:
        with context.begin_transaction():
            context.run_migrations()
        if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
            raise RuntimeError("the migration left rows whose foreign keys point nowhere")
    finally:
        if sqlite:
            connection.rollback()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()

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
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=url.startswith("sqlite"),
        compare_type=True,
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()

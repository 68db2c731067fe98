"""The checkpoint_validations table's queries (its lease statements: app/leases.py)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.models import CheckpointValidation


def get(session: Session, validation_id: int) -> CheckpointValidation | None:
    return session.get(CheckpointValidation, validation_id)


def add(session: Session, row: CheckpointValidation) -> CheckpointValidation:
    session.add(row)
    session.flush()
    return row

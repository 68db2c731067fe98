"""grading events: what /metrics counts

One row per event of a submission's stage (graded, retry, lease_expired, message_lost,
gave_up), written by the lifecycle in the transaction that made it happen; /metrics reads
them at scrape time. New table only: nothing existing changes.

Revision ID: 5e2d9a7c41b3
Revises: 6e2b8d41f0a3 (checkpoint versions, merged into main first)
Create Date: 2026-12-01 12:15:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '5e2d9a7c41b3'
down_revision = '6e2b8d41f0a3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('grading_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('submission_id', sa.Integer(), nullable=False),
    sa.Column('stage', sa.String(length=10), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('verdict', sa.String(length=20), nullable=True),
    sa.Column('seconds', sa.Float(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_grading_events'))
    )


def downgrade() -> None:
    op.drop_table('grading_events')

"""workers: can a GPU worker profile

A GPU worker checks at its start whether Nsight Compute can read the GPU's counters and says
so with its heartbeat: /api/health and the admin page show it per GPU worker.

Revision ID: 7e2c5a9d41f3
Revises: 6e2b8d41f0a3
Create Date: 2026-12-01 12:10:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '7e2c5a9d41f3'
down_revision = '6e2b8d41f0a3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('workers') as batch:
        batch.add_column(sa.Column('can_profile', sa.Boolean(), nullable=True))
        batch.add_column(sa.Column('profiling', sa.String(length=500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('workers') as batch:
        batch.drop_column('profiling')
        batch.drop_column('can_profile')

"""an instructor's word on an explanation, apart from the kernel (issue 30)

`level_overrides.explanation`: "accepted" or "refused" when the override is an instructor's
decision on the submission's explanation (its level is then worked out from the measurements
and that word, again on a regrade's new result); null for a plain change of level, as every
existing row is. A new nullable column only: nothing existing changes.

Revision ID: 3f7a2c9e1d60
Revises: 9c41e7a2b532 (sign-in limits per login, web sessions)
Create Date: 2026-12-02 12:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '3f7a2c9e1d60'
down_revision = '9c41e7a2b532'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('level_overrides') as batch:
        batch.add_column(sa.Column('explanation', sa.String(length=10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('level_overrides') as batch:
        batch.drop_column('explanation')

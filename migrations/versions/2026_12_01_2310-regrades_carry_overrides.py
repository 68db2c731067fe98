"""regrades keep the instructor's word: an override carried to a regrade's new result

`regrades.carry_overrides` (true unless the instructor asked to clear the overrides) and
`level_overrides.carried_from` (the override this one was carried from, on an earlier result of
the same submission). New nullable or defaulted columns only: nothing existing changes.

Revision ID: 8c31d0a7e2f4
Revises: 5e2d9a7c41b3 (grading events)
Create Date: 2026-12-01 23:10:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '8c31d0a7e2f4'
down_revision = '5e2d9a7c41b3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('regrades') as batch:
        batch.add_column(
            sa.Column('carry_overrides', sa.Boolean(), server_default=sa.text('true'), nullable=False)
        )
    with op.batch_alter_table('level_overrides') as batch:
        batch.add_column(sa.Column('carried_from', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('level_overrides') as batch:
        batch.drop_column('carried_from')
    with op.batch_alter_table('regrades') as batch:
        batch.drop_column('carry_overrides')

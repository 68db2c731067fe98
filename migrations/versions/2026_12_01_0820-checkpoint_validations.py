"""checkpoint validations

An admin's checkpoint is validated by a worker task, not inside the HTTP request: this row holds
the uploaded files (a worker on another host can validate them), the checks as each finishes,
and the outcome; it is claimed and leased like a submission, so that the reconciler takes up a
lost message or a dead worker.

Revision ID: 8b3e6f2a4c17
Revises: 5d1f0c3b7a92
Create Date: 2026-12-01 08:20:14.118005
"""

from alembic import op
import sqlalchemy as sa


revision = '8b3e6f2a4c17'
down_revision = '5d1f0c3b7a92'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('checkpoint_validations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('checkpoint', sa.String(length=100), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('files', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('claimed_by', sa.String(length=200), nullable=True),
    sa.Column('lease_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('enqueued_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('checks', sa.JSON(), nullable=False),
    sa.Column('valid', sa.Boolean(), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['requested_by'], ['users.id'], name=op.f('fk_checkpoint_validations_requested_by_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_checkpoint_validations'))
    )
    op.create_index('ix_checkpoint_validations_status_lease', 'checkpoint_validations', ['status', 'lease_expires_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_checkpoint_validations_status_lease', table_name='checkpoint_validations')
    op.drop_table('checkpoint_validations')

"""sign-in limits per login, and server-side web sessions (issue 32)

signin_failures.login: what the per-account limit counts ("user:<id>", or "name:<login>" for
a name no account has, so that an unknown name is limited like a known one). web_sessions: a
browser's session, which signing out ends. Added only: nothing existing changes (old failure
rows have no login and age out of the window; old cookies name no session and sign in again).

Revision ID: 9c41e7a2b532
Revises: 8c31d0a7e2f4 (regrades carry overrides)
Create Date: 2026-12-01 23:20:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '9c41e7a2b532'
down_revision = '8c31d0a7e2f4'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('signin_failures') as batch:
        batch.add_column(sa.Column('login', sa.String(length=300), nullable=True))
    op.create_index(
        'ix_signin_failures_login_at', 'signin_failures', ['login', 'at'], unique=False
    )
    op.create_table('web_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('id_hash', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_web_sessions_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_web_sessions')),
    sa.UniqueConstraint('id_hash', name=op.f('uq_web_sessions_id_hash'))
    )
    op.create_index('ix_web_sessions_user_id', 'web_sessions', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_web_sessions_user_id', table_name='web_sessions')
    op.drop_table('web_sessions')
    op.drop_index('ix_signin_failures_login_at', table_name='signin_failures')
    with op.batch_alter_table('signin_failures') as batch:
        batch.drop_column('login')

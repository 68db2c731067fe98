"""roster, sign-in, named API tokens, sections

Accounts come from a roster (email and section), sign in with a password set through a
one-time invite link (argon2id), and use the API with named tokens, several per user, in a
table of their own. Every existing token is carried over as that user's token named "cli", so
nobody's CLI breaks; a downgrade keeps each user's oldest token (the others are lost).

Revision ID: c4a7e91d2b60
Revises: 8b3e6f2a4c17
Create Date: 2026-12-01 09:34:16.583858
"""

from alembic import op
import sqlalchemy as sa


revision = 'c4a7e91d2b60'
down_revision = '8b3e6f2a4c17'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('api_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_api_tokens_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_tokens')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_api_tokens_token_hash')),
    sa.UniqueConstraint('user_id', 'name', name=op.f('uq_api_tokens_user_id'))
    )
    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_tokens_user_id'), ['user_id'], unique=False)

    op.create_table('invites',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_invites_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invites')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_invites_token_hash'))
    )
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invites_user_id'), ['user_id'], unique=False)

    op.create_table('signin_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_signin_failures_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_signin_failures'))
    )
    with op.batch_alter_table('signin_failures', schema=None) as batch_op:
        batch_op.create_index('ix_signin_failures_address_at', ['address', 'at'], unique=False)
        batch_op.create_index('ix_signin_failures_user_at', ['user_id', 'at'], unique=False)

    # The users' tokens, as each one's token named "cli", before the column goes.
    op.execute(
        "INSERT INTO api_tokens (user_id, name, token_hash, created_at) "
        "SELECT id, 'cli', token_hash, created_at FROM users"
    )
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('email', sa.String(length=254), nullable=True))
        batch_op.add_column(sa.Column('section', sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column('password_hash', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('session_version', sa.Integer(), server_default='0', nullable=False))
        batch_op.drop_constraint(batch_op.f('uq_users_token_hash'), type_='unique')
        batch_op.create_index(batch_op.f('ix_users_section'), ['section'], unique=False)
        batch_op.create_unique_constraint(batch_op.f('uq_users_email'), ['email'])
        batch_op.drop_column('token_hash')




def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token_hash', sa.VARCHAR(length=64), nullable=True))
    # Each user's oldest token back in the column; one without any gets a hash no token has.
    op.execute(
        "UPDATE users SET token_hash = COALESCE("
        "(SELECT t.token_hash FROM api_tokens t WHERE t.user_id = users.id "
        "ORDER BY t.id LIMIT 1), 'none-' || users.id)"
    )
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('token_hash', existing_type=sa.VARCHAR(length=64), nullable=False)
        batch_op.drop_constraint(batch_op.f('uq_users_email'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_users_section'))
        batch_op.create_unique_constraint(batch_op.f('uq_users_token_hash'), ['token_hash'])
        batch_op.drop_column('session_version')
        batch_op.drop_column('disabled_at')
        batch_op.drop_column('password_hash')
        batch_op.drop_column('section')
        batch_op.drop_column('email')

    with op.batch_alter_table('signin_failures', schema=None) as batch_op:
        batch_op.drop_index('ix_signin_failures_user_at')
        batch_op.drop_index('ix_signin_failures_address_at')

    op.drop_table('signin_failures')
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invites_user_id'))

    op.drop_table('invites')
    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_tokens_user_id'))

    op.drop_table('api_tokens')

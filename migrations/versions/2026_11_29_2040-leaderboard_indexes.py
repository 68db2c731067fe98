"""leaderboard indexes

The leaderboard, the CSV export and the history at course scale (10k students, 1M
submissions: benchmarks/db_scale.py, docs/PERFORMANCE.md).

- ix_submissions_leaderboard: the leaderboard's window in index order (no sort of every graded
  row of a checkpoint), index-only: partial on the rows it ranks, with gpu_model included
  because PostgreSQL reads an expression's column for an index-only scan.
- ix_submissions_checkpoint_user: submissions per student of a checkpoint (leaderboard count,
  CSV export) as an index-only scan.
- ix_submissions_user_id: a student's history, newest first, without reading all their rows.

On SQLite (the embedded default, small courses) only the history index is made: SQLite has
no INCLUDE and no NULLS LAST in an index.

Revision ID: a7e2b9c41d05
Revises: c43a7c2d9147
Create Date: 2026-11-29 20:40:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = 'a7e2b9c41d05'
down_revision = 'c43a7c2d9147'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_submissions_user_id', 'submissions', ['user_id', 'id'])
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.create_index(
        'ix_submissions_leaderboard',
        'submissions',
        [
            'checkpoint',
            'user_id',
            sa.text("coalesce(gpu_model, 'cpu')"),
            sa.text('level DESC'),
            sa.text('speedup DESC NULLS LAST'),
            'id',
        ],
        postgresql_include=['gpu_model'],
        postgresql_where=sa.text("status = 'done' AND level IS NOT NULL"),
    )
    op.create_index(
        'ix_submissions_checkpoint_user',
        'submissions',
        ['checkpoint', 'user_id'],
        postgresql_include=['status', 'level', 'speedup', 'created_at'],
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_index('ix_submissions_checkpoint_user', 'submissions')
        op.drop_index('ix_submissions_leaderboard', 'submissions')
    op.drop_index('ix_submissions_user_id', 'submissions')

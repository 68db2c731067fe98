"""checkpoint versions, regrades, every result of a submission kept

A checkpoint's version is the content hash of its files (app/checkpoints/versions.py); the
files of each version that graded something are kept in `checkpoint_versions`. Every finished
grading is a row of `grading_results` (a regrade adds one, keeping the earlier), and the
submission names its current one (`result_id`), the version that graded it and the regrade
it is queued for. A level override names the result it was made on.

The submissions' new columns have no foreign keys: SQLite adds such a column only by
rebuilding the table, which would drop the standings triggers. The results graded before
this revision are copied into `grading_results` (version unknown), so none is lost.

Revision ID: 6e2b8d41f0a3
Revises: 3e8d1a6f5b24 (deadlines; chained after merging main)
Create Date: 2026-12-01 12:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '6e2b8d41f0a3'
down_revision = '3e8d1a6f5b24'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('checkpoint_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('checkpoint', sa.String(length=100), nullable=False),
    sa.Column('version', sa.String(length=64), nullable=False),
    sa.Column('files', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_checkpoint_versions')),
    sa.UniqueConstraint('checkpoint', 'version', name=op.f('uq_checkpoint_versions_checkpoint'))
    )
    op.create_table('regrades',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('checkpoint', sa.String(length=100), nullable=False),
    sa.Column('scope', sa.String(length=20), nullable=False),
    sa.Column('target', sa.String(length=100), nullable=True),
    sa.Column('version', sa.String(length=64), nullable=False),
    sa.Column('requested_by', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['requested_by'], ['users.id'], name=op.f('fk_regrades_requested_by_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_regrades'))
    )
    op.create_index(op.f('ix_regrades_checkpoint'), 'regrades', ['checkpoint'], unique=False)
    op.create_table('grading_results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('submission_id', sa.Integer(), nullable=False),
    sa.Column('checkpoint_version', sa.String(length=64), nullable=True),
    sa.Column('regrade_id', sa.Integer(), nullable=True),
    sa.Column('verdict', sa.String(length=20), nullable=True),
    sa.Column('level', sa.Integer(), nullable=True),
    sa.Column('speedup', sa.Float(), nullable=True),
    sa.Column('gpu_model', sa.String(length=50), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['regrade_id'], ['regrades.id'], name=op.f('fk_grading_results_regrade_id_regrades')),
    sa.ForeignKeyConstraint(['submission_id'], ['submissions.id'], name=op.f('fk_grading_results_submission_id_submissions')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_grading_results'))
    )
    op.create_index(op.f('ix_grading_results_regrade_id'), 'grading_results', ['regrade_id'], unique=False)
    op.create_index(op.f('ix_grading_results_submission_id'), 'grading_results', ['submission_id'], unique=False)
    op.add_column('submissions', sa.Column('checkpoint_version', sa.String(length=64), nullable=True))
    op.add_column('submissions', sa.Column('result_id', sa.Integer(), nullable=True))
    op.add_column('submissions', sa.Column('regrade_id', sa.Integer(), nullable=True))
    op.create_index(op.f('ix_submissions_regrade_id'), 'submissions', ['regrade_id'], unique=False)
    op.add_column('level_overrides', sa.Column('result_id', sa.Integer(), nullable=True))
    # the results graded so far, each the first of its submission's history
    op.execute(
        "INSERT INTO grading_results (submission_id, verdict, level, speedup, gpu_model, "
        "result, created_at) SELECT id, verdict, result_level, speedup, gpu_model, result, "
        "coalesce(finished_at, created_at) FROM ("
        "SELECT s.*, coalesce((SELECT o.old_level FROM level_overrides o "
        "WHERE o.submission_id = s.id ORDER BY o.id LIMIT 1), s.level) AS result_level "
        "FROM submissions s WHERE s.status = 'done') t"
    )
    op.execute(
        "UPDATE submissions SET result_id = (SELECT g.id FROM grading_results g "
        "WHERE g.submission_id = submissions.id) WHERE status = 'done'"
    )
    op.execute(
        "UPDATE level_overrides SET result_id = (SELECT s.result_id FROM submissions s "
        "WHERE s.id = level_overrides.submission_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table('level_overrides') as batch:
        batch.drop_column('result_id')
    op.drop_index(op.f('ix_submissions_regrade_id'), table_name='submissions')
    for column in ('regrade_id', 'result_id', 'checkpoint_version'):
        op.drop_column('submissions', column)
    op.drop_index(op.f('ix_grading_results_submission_id'), table_name='grading_results')
    op.drop_index(op.f('ix_grading_results_regrade_id'), table_name='grading_results')
    op.drop_table('grading_results')
    op.drop_index(op.f('ix_regrades_checkpoint'), table_name='regrades')
    op.drop_table('regrades')
    op.drop_table('checkpoint_versions')

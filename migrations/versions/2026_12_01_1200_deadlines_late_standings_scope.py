"""deadlines: an instructor's deadline per checkpoint, late submissions, on-time standings

`checkpoint_deadlines` holds an instructor's deadline of a checkpoint (overriding the one in
its definition), `submissions.late` whether a submission came after the due time, and
`standings` gains `scope`: each (checkpoint, student, GPU model) has its best of the on-time
submissions ('on_time', what boards show by default) and of all of them ('all'). The triggers
of 2026_11_29_2110 are replaced by ones that keep both scopes and watch `late` too.

Revision ID: 3e8d1a6f5b24
Revises: c4a7e91d2b60
Create Date: 2026-12-01 12:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '3e8d1a6f5b24'
down_revision = 'c4a7e91d2b60'
branch_labels = None
depends_on = None

# The best row per GPU model of one (checkpoint, student), as the leaderboard ranks them;
# {extra} narrows the ranked rows (the on-time scope), the count is of all submissions.
BEST = """
    SELECT r.checkpoint, {scope} r.user_id, r.gpu, r.id, r.level, r.speedup, c.total FROM (
        SELECT s.checkpoint, s.user_id, coalesce(s.gpu_model, 'cpu') AS gpu, s.id, s.level,
               s.speedup,
               row_number() OVER (
                   PARTITION BY s.checkpoint, s.user_id, coalesce(s.gpu_model, 'cpu')
                   ORDER BY s.level DESC, s.speedup DESC NULLS LAST, s.id) AS n
        FROM submissions s
        WHERE {where} AND s.status = 'done' AND s.level IS NOT NULL {extra}
    ) r JOIN (
        SELECT s.checkpoint, s.user_id, count(*) AS total FROM submissions s
        WHERE {where} GROUP BY s.checkpoint, s.user_id
    ) c ON c.checkpoint = r.checkpoint AND c.user_id = r.user_id
    WHERE r.n = 1
"""
OLD_COLUMNS = "checkpoint, user_id, gpu_model, submission_id, level, speedup, submissions"
COLUMNS = "checkpoint, scope, user_id, gpu_model, submission_id, level, speedup, submissions"
OLD_WATCHED = "status, level, speedup, gpu_model, checkpoint, user_id"
WATCHED = OLD_WATCHED + ", late"


def _inserts(where: str, scoped: bool) -> str:
    if not scoped:
        return f"INSERT INTO standings ({OLD_COLUMNS}) {BEST.format(where=where, scope='', extra='')};\n"
    return "".join(
        f"INSERT INTO standings ({COLUMNS}) "
        f"{BEST.format(where=where, scope=repr(scope) + ',', extra=extra)};\n"
        for scope, extra in (("on_time", "AND NOT s.late"), ("all", ""))
    )


def _refresh(checkpoint: str, user: str, scoped: bool) -> str:
    """Statements that recompute one (checkpoint, student) pair."""
    where = f"s.checkpoint = {checkpoint} AND s.user_id = {user}"
    return (
        f"DELETE FROM standings WHERE checkpoint = {checkpoint} AND user_id = {user};\n"
        + _inserts(where, scoped)
    )


def _drop_triggers(dialect: str) -> None:
    if dialect == 'postgresql':
        op.execute("DROP TRIGGER submissions_standings ON submissions")
        op.execute("DROP FUNCTION kgrade_standings_trigger()")
        op.execute("DROP FUNCTION kgrade_refresh_standing(text, integer)")
    else:
        for t in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER submissions_standings_{t}")


def _create_triggers(dialect: str, scoped: bool) -> None:
    watched = WATCHED if scoped else OLD_WATCHED
    if dialect == 'postgresql':
        op.execute(f"""
            CREATE FUNCTION kgrade_refresh_standing(p_checkpoint text, p_user integer)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtext(p_checkpoint), p_user);
                {_refresh('p_checkpoint', 'p_user', scoped)}
            END $$;
        """)
        op.execute("""
            CREATE FUNCTION kgrade_standings_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP <> 'INSERT' THEN
                    PERFORM kgrade_refresh_standing(OLD.checkpoint, OLD.user_id);
                END IF;
                IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (
                        NEW.checkpoint IS DISTINCT FROM OLD.checkpoint
                        OR NEW.user_id IS DISTINCT FROM OLD.user_id)) THEN
                    PERFORM kgrade_refresh_standing(NEW.checkpoint, NEW.user_id);
                END IF;
                RETURN NULL;
            END $$;
        """)
        op.execute(f"""
            CREATE TRIGGER submissions_standings
            AFTER INSERT OR DELETE OR UPDATE OF {watched} ON submissions
            FOR EACH ROW EXECUTE FUNCTION kgrade_standings_trigger()
        """)
        return
    op.execute(
        "CREATE TRIGGER submissions_standings_insert AFTER INSERT ON submissions BEGIN\n"
        + _refresh("NEW.checkpoint", "NEW.user_id", scoped) + "END"
    )
    op.execute(
        "CREATE TRIGGER submissions_standings_delete AFTER DELETE ON submissions BEGIN\n"
        + _refresh("OLD.checkpoint", "OLD.user_id", scoped) + "END"
    )
    op.execute(
        f"CREATE TRIGGER submissions_standings_update AFTER UPDATE OF {watched} "
        "ON submissions BEGIN\n"
        + _refresh("OLD.checkpoint", "OLD.user_id", scoped)
        + _refresh("NEW.checkpoint", "NEW.user_id", scoped) + "END"
    )


def _standings(dialect: str, scoped: bool) -> None:
    op.create_table(
        'standings',
        sa.Column('checkpoint', sa.String(length=100), nullable=False),
        *([sa.Column('scope', sa.String(length=8), nullable=False)] if scoped else []),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('gpu_model', sa.String(length=50), nullable=False),
        sa.Column('submission_id', sa.Integer(), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
        sa.Column('speedup', sa.Float(), nullable=True),
        sa.Column('submissions', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(
            'checkpoint', *(['scope'] if scoped else []), 'user_id', 'gpu_model'
        ),
    )
    scope = "scope, " if scoped else ""
    nulls = " NULLS LAST" if dialect == 'postgresql' else ""
    op.execute(
        f"CREATE INDEX ix_standings_rank ON standings "
        f"(checkpoint, {scope}gpu_model, level DESC, speedup DESC{nulls}, submission_id)"
    )
    _create_triggers(dialect, scoped)
    for statement in _inserts("TRUE", scoped).split(";\n"):  # SQLite: one at a time
        if statement.strip():
            op.execute(statement)


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        'checkpoint_deadlines',
        sa.Column('checkpoint', sa.String(length=100), nullable=False),
        sa.Column('opens_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('late_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('policy', sa.String(length=10), nullable=False),
        sa.Column('timezone', sa.String(length=64), nullable=False),
        sa.Column('set_by', sa.Integer(), nullable=False),
        sa.Column('set_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['set_by'], ['users.id'], name=op.f('fk_checkpoint_deadlines_set_by_users')
        ),
        sa.PrimaryKeyConstraint('checkpoint', name=op.f('pk_checkpoint_deadlines')),
    )
    _drop_triggers(dialect)
    op.drop_table('standings')
    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('late', sa.Boolean(), server_default=sa.text('false'), nullable=False)
        )
    _standings(dialect, scoped=True)
    if dialect == 'postgresql':  # the export reads `late` too, still index-only
        _export_index(['status', 'level', 'speedup', 'created_at', 'late'])


def _export_index(include: list[str]) -> None:
    op.drop_index('ix_submissions_checkpoint_user', 'submissions')
    op.create_index(
        'ix_submissions_checkpoint_user',
        'submissions',
        ['checkpoint', 'user_id'],
        postgresql_include=include,
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == 'postgresql':
        _export_index(['status', 'level', 'speedup', 'created_at'])
    _drop_triggers(dialect)
    op.drop_table('standings')
    with op.batch_alter_table('submissions', schema=None) as batch_op:
        batch_op.drop_column('late')
    _standings(dialect, scoped=False)
    op.drop_table('checkpoint_deadlines')

"""standings: each student's best graded submission per checkpoint and GPU model

The leaderboard read every graded row of a checkpoint to rank each student's best (416 ms p50
at 10k students and 1M submissions: docs/PERFORMANCE.md). `standings` keeps that best, one
narrow row per (checkpoint, student, GPU model, 'cpu' for none), plus the student's number of
submissions to the checkpoint, and the leaderboard reads it in index order.

It is kept by triggers on `submissions`, in the database, so that every way a row is written
(a worker's finish, the reconciler's give-up, an instructor's override, a level-4 approval, an
admission, raw SQL) keeps it right in the same transaction. The refresh recomputes the
(checkpoint, student) pair from `submissions` (indexed: ix_submissions_checkpoint_user); on
PostgreSQL it first takes a transaction-scoped advisory lock on the pair, so two workers
finishing a student's submissions at once serialize instead of both inserting.

Revision ID: 5d1f0c3b7a92
Revises: a7e2b9c41d05
Create Date: 2026-11-29 21:10:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '5d1f0c3b7a92'
down_revision = 'a7e2b9c41d05'
branch_labels = None
depends_on = None

# The best row per GPU model of one (checkpoint, student), as the leaderboard ranks them.
BEST = """
    SELECT r.checkpoint, r.user_id, r.gpu, r.id, r.level, r.speedup, c.total FROM (
        SELECT s.checkpoint, s.user_id, coalesce(s.gpu_model, 'cpu') AS gpu, s.id, s.level,
               s.speedup,
               row_number() OVER (
                   PARTITION BY s.checkpoint, s.user_id, coalesce(s.gpu_model, 'cpu')
                   ORDER BY s.level DESC, s.speedup DESC NULLS LAST, s.id) AS n
        FROM submissions s
        WHERE {where} AND s.status = 'done' AND s.level IS NOT NULL
    ) r JOIN (
        SELECT s.checkpoint, s.user_id, count(*) AS total FROM submissions s
        WHERE {where} GROUP BY s.checkpoint, s.user_id
    ) c ON c.checkpoint = r.checkpoint AND c.user_id = r.user_id
    WHERE r.n = 1
"""
COLUMNS = "checkpoint, user_id, gpu_model, submission_id, level, speedup, submissions"


def _refresh(checkpoint: str, user: str) -> str:
    """Statements that recompute one (checkpoint, student) pair."""
    where = f"s.checkpoint = {checkpoint} AND s.user_id = {user}"
    return (
        f"DELETE FROM standings WHERE checkpoint = {checkpoint} AND user_id = {user};\n"
        f"INSERT INTO standings ({COLUMNS}) {BEST.format(where=where)};\n"
    )


WATCHED = "status, level, speedup, gpu_model, checkpoint, user_id"


def upgrade() -> None:
    op.create_table(
        'standings',
        sa.Column('checkpoint', sa.String(length=100), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('gpu_model', sa.String(length=50), nullable=False),
        sa.Column('submission_id', sa.Integer(), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
        sa.Column('speedup', sa.Float(), nullable=True),
        sa.Column('submissions', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('checkpoint', 'user_id', 'gpu_model'),
    )
    dialect = op.get_bind().dialect.name
    if dialect == 'postgresql':
        op.execute(
            "CREATE INDEX ix_standings_rank ON standings "
            "(checkpoint, gpu_model, level DESC, speedup DESC NULLS LAST, submission_id)"
        )
        op.execute(f"""
            CREATE FUNCTION kgrade_refresh_standing(p_checkpoint text, p_user integer)
            RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtext(p_checkpoint), p_user);
                {_refresh('p_checkpoint', 'p_user')}
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
            AFTER INSERT OR DELETE OR UPDATE OF {WATCHED} ON submissions
            FOR EACH ROW EXECUTE FUNCTION kgrade_standings_trigger()
        """)
    else:  # SQLite: no functions, so each trigger holds the statements
        op.execute(
            "CREATE INDEX ix_standings_rank ON standings "
            "(checkpoint, gpu_model, level DESC, speedup DESC, submission_id)"
        )
        op.execute(
            "CREATE TRIGGER submissions_standings_insert AFTER INSERT ON submissions BEGIN\n"
            + _refresh("NEW.checkpoint", "NEW.user_id") + "END"
        )
        op.execute(
            "CREATE TRIGGER submissions_standings_delete AFTER DELETE ON submissions BEGIN\n"
            + _refresh("OLD.checkpoint", "OLD.user_id") + "END"
        )
        op.execute(
            f"CREATE TRIGGER submissions_standings_update AFTER UPDATE OF {WATCHED} "
            "ON submissions BEGIN\n"
            + _refresh("OLD.checkpoint", "OLD.user_id")
            + _refresh("NEW.checkpoint", "NEW.user_id") + "END"
        )
    op.execute(f"INSERT INTO standings ({COLUMNS}) {BEST.format(where='TRUE')}")


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == 'postgresql':
        op.execute("DROP TRIGGER submissions_standings ON submissions")
        op.execute("DROP FUNCTION kgrade_standings_trigger()")
        op.execute("DROP FUNCTION kgrade_refresh_standing(text, integer)")
    else:
        for t in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER submissions_standings_{t}")
    op.drop_table('standings')

"""Journal header, journal rows with append-only triggers, long-term memory entries.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_APPEND_ONLY = ("journal", "journal_header")


def upgrade() -> None:
    op.create_table(
        "journal_header",
        sa.Column("singleton", sa.Integer, primary_key=True),
        sa.Column("journal_id", sa.String(64), nullable=False),
        sa.Column("format_version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("genesis_hash", sa.String(64), nullable=False),
        sa.CheckConstraint("singleton = 1", name="journal_header_single_row"),
    )
    op.create_table(
        "journal",
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("recorded_at", sa.String(27), nullable=False),
        sa.Column("syscall", sa.Text, nullable=False),
        sa.Column("principal", sa.Text, nullable=False),
        sa.Column("args", sa.LargeBinary, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("result", sa.LargeBinary, nullable=False),
        sa.Column("effects_hash", sa.String(64), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("entry_hash", sa.String(64), nullable=False),
        sa.CheckConstraint("seq >= 1", name="journal_seq_positive"),
    )
    op.create_table(
        "memory_entries",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("memory_type", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("notes", sa.Text),
        sa.Column("value_ref", sa.Text),
        sa.Column("expires_at", sa.String(27)),
        sa.Column("revoked_at", sa.String(27)),
        sa.Column("superseded_at", sa.String(27)),
        sa.Column("governance", sa.Text, nullable=False),
        sa.Column("written_seq", sa.BigInteger, nullable=False),
    )
    dialect = op.get_bind().dialect.name
    for table in _APPEND_ONLY:
        for action in ("UPDATE", "DELETE"):
            name = f"{table}_no_{action.lower()}"
            if dialect == "sqlite":
                op.execute(
                    f"CREATE TRIGGER {name} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )
            elif dialect == "postgresql":
                op.execute(
                    f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
                    f"$$ BEGIN RAISE EXCEPTION '{table} is append-only'; END $$"
                )
                op.execute(
                    f"CREATE TRIGGER {name} BEFORE {action} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()"
                )
        if dialect == "postgresql":  # TRUNCATE fires no row trigger (SQLite has no TRUNCATE)
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_no_delete()"
            )


def downgrade() -> None:
    raise RuntimeError("the journal is append-only: revision 0001 cannot be downgraded")

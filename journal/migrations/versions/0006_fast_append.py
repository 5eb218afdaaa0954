"""Cheaper appends: the journal's seq becomes SQLite's rowid, the filter indexes go, and a per-user
count of memory entries replaces a COUNT(*) on every write.

Every index on the journal is one more page written at every commit; on SQLite a ``BIGINT PRIMARY
KEY`` is a separate index beside the rowid, where ``INTEGER PRIMARY KEY`` is the rowid itself. The
journal is rebuilt on SQLite (its rows copied as they are, the append-only triggers re-created);
PostgreSQL keeps its table. Journal filters (``journal ls``) scan in seq order instead.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_FILTER_INDEXES = (
    "ix_journal_recorded_at",
    "ix_journal_syscall",
    "ix_journal_principal",
    "ix_journal_status",
)
_COLUMNS = "seq, recorded_at, syscall, principal, args, status, result, effects_hash, prev_hash, entry_hash"


def _rebuild_sqlite_journal() -> None:
    op.execute(
        "CREATE TABLE journal_rebuilt ("
        "seq INTEGER NOT NULL PRIMARY KEY, "
        "recorded_at VARCHAR(27) NOT NULL, syscall TEXT NOT NULL, principal TEXT NOT NULL, "
        "args BLOB NOT NULL, status TEXT NOT NULL, result BLOB NOT NULL, "
        "effects_hash VARCHAR(64) NOT NULL, prev_hash VARCHAR(64) NOT NULL, "
        "entry_hash VARCHAR(64) NOT NULL, "
        "CONSTRAINT journal_seq_positive CHECK (seq >= 1))"
    )
    op.execute(f"INSERT INTO journal_rebuilt ({_COLUMNS}) SELECT {_COLUMNS} FROM journal ORDER BY seq")
    op.execute("DROP TABLE journal")  # its triggers and indexes go with it
    op.execute("ALTER TABLE journal_rebuilt RENAME TO journal")
    for action in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER journal_no_{action.lower()} BEFORE {action} ON journal "
            "BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END"
        )


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for name in _FILTER_INDEXES:
        op.drop_index(name, table_name="journal")
    if dialect == "sqlite":
        _rebuild_sqlite_journal()
    op.create_table(
        "memory_entry_counts",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("entries", sa.BigInteger, nullable=False),
    )
    op.execute(
        "INSERT INTO memory_entry_counts (user_id, entries) "
        "SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id"
    )


def downgrade() -> None:
    raise RuntimeError("revision 0006 rebuilt the journal table: it cannot be downgraded")

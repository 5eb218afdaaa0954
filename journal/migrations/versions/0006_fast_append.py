"""Cheaper appends: the journal's seq becomes SQLite's rowid, the filter indexes go, and a per-user
count of memory entries replaces a COUNT(*) on every write.

Every B-tree a call touches is one more page written at every commit. On SQLite a ``BIGINT PRIMARY
KEY`` is a separate index beside the rowid, where ``INTEGER PRIMARY KEY`` is the rowid itself, and a
table with a composite primary key is a rowid B-tree plus an index, where ``WITHOUT ROWID`` is one
B-tree. The journal and ``memory_entries`` are rebuilt on SQLite (their rows copied as they are, the
journal's append-only triggers re-created); PostgreSQL keeps its tables. Journal filters (``journal
ls``) scan in seq order instead.

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


_ENTRY_COLUMNS = (
    'user_id, "key", version, memory_type, created_at, source, notes, value_ref, expires_at, revoked_at, '
    "superseded_at, governance, written_seq"
)


def _rebuild_sqlite_memory_entries() -> None:
    """The same table WITHOUT ROWID: rows stored in their primary key's B-tree, no second index."""
    op.execute(
        "CREATE TABLE memory_entries_rebuilt ("
        'user_id TEXT NOT NULL, "key" TEXT NOT NULL, version INTEGER NOT NULL, memory_type TEXT NOT NULL, '
        "created_at VARCHAR(27) NOT NULL, source TEXT NOT NULL, notes TEXT, value_ref TEXT, "
        "expires_at VARCHAR(27), revoked_at VARCHAR(27), superseded_at VARCHAR(27), "
        "governance TEXT NOT NULL, written_seq BIGINT NOT NULL, "
        'PRIMARY KEY (user_id, "key", version)) WITHOUT ROWID'
    )
    op.execute(
        f"INSERT INTO memory_entries_rebuilt ({_ENTRY_COLUMNS}) SELECT {_ENTRY_COLUMNS} FROM memory_entries"
    )
    op.execute("DROP TABLE memory_entries")
    op.execute("ALTER TABLE memory_entries_rebuilt RENAME TO memory_entries")


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for name in _FILTER_INDEXES:
        op.drop_index(name, table_name="journal")
    if dialect == "sqlite":
        _rebuild_sqlite_journal()
        _rebuild_sqlite_memory_entries()
    op.create_table(
        "memory_entry_counts",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("entries", sa.BigInteger, nullable=False),
        sqlite_with_rowid=False,
    )
    op.execute(
        "INSERT INTO memory_entry_counts (user_id, entries) "
        "SELECT user_id, COUNT(*) FROM memory_entries GROUP BY user_id"
    )


def downgrade() -> None:
    raise RuntimeError("revision 0006 rebuilt the journal table: it cannot be downgraded")

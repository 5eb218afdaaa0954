"""Indexes for the journal filters (time range, syscall, principal, status).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_INDEXES = {
    "ix_journal_recorded_at": ["recorded_at"],
    "ix_journal_syscall": ["syscall"],
    "ix_journal_principal": ["principal"],
    "ix_journal_status": ["status"],
}


def upgrade() -> None:
    for name, columns in _INDEXES.items():
        op.create_index(name, "journal", columns)


def downgrade() -> None:
    for name in _INDEXES:
        op.drop_index(name, table_name="journal")

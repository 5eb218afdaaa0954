"""The graph store's quota (``specs/langgraph.md`` §8.3): ``journal_header.store_quota_bytes``, the bytes
each owner of a namespace's first element may store, fixed when a journal is created (NULL: no quota, so a
journal migrated from an older revision keeps deciding as it did), and ``graph_store_sizes``, the size of
each item's value, and ``graph_store_usage``, each owner's running total, kept where there is a quota.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("journal_header", sa.Column("store_quota_bytes", sa.BigInteger(), nullable=True))
    op.create_table(
        "graph_store_sizes",
        sa.Column("namespace", sa.Text(), primary_key=True),
        sa.Column("key", sa.Text(), primary_key=True),
        sa.Column("prefix", sa.Text(), nullable=False),
        sa.Column("value_bytes", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "graph_store_usage",
        sa.Column("owner", sa.Text(), primary_key=True),
        sa.Column("stored_bytes", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("graph_store_usage")
    op.drop_table("graph_store_sizes")
    op.drop_column("journal_header", "store_quota_bytes")

"""LangGraph's long-term store (the ``graph.store.*`` syscalls, specs/langgraph.md §8): owners of first
namespace elements, namespaces, and items whose values are references into ``graph_blobs``.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "graph_store_owners",
        sa.Column("prefix", sa.Text, primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("created_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_store_namespaces",
        sa.Column("namespace", sa.Text, primary_key=True),
        sa.Column("created_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_store_items",
        sa.Column("namespace", sa.Text, primary_key=True),
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("prefix", sa.Text, nullable=False),
        sa.Column("value_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.Column("expires_at", sa.Text),
        sa.Column("ttl", sa.Text),
        sa.Column("order_seq", sa.BigInteger, nullable=False),
        sa.Column("written_seq", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for table in ("graph_store_items", "graph_store_namespaces", "graph_store_owners"):
        op.drop_table(table)

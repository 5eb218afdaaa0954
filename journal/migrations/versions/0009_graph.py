"""LangGraph checkpoints (the ``graph.*`` syscalls, specs/langgraph.md): thread owners, checkpoints, channel
values and pending writes as state, and the content-addressed blobs they reference (not state).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "graph_thread_owners",
        sa.Column("thread_id", sa.Text, primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("created_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_checkpoints",
        sa.Column("thread_id", sa.Text, primary_key=True),
        sa.Column("checkpoint_ns", sa.Text, primary_key=True),
        sa.Column("checkpoint_id", sa.Text, primary_key=True),
        sa.Column("parent_checkpoint_id", sa.Text),
        sa.Column("checkpoint_type", sa.Text, nullable=False),
        sa.Column("checkpoint_hash", sa.String(64), nullable=False),
        sa.Column("metadata", sa.Text, nullable=False),
        sa.Column("channel_versions", sa.Text, nullable=False),
        sa.Column("written_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_channel_values",
        sa.Column("thread_id", sa.Text, primary_key=True),
        sa.Column("checkpoint_ns", sa.Text, primary_key=True),
        sa.Column("channel", sa.Text, primary_key=True),
        sa.Column("version", sa.Text, primary_key=True),
        sa.Column("value_type", sa.Text, nullable=False),
        sa.Column("value_hash", sa.String(64)),
        sa.Column("written_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_writes",
        sa.Column("thread_id", sa.Text, primary_key=True),
        sa.Column("checkpoint_ns", sa.Text, primary_key=True),
        sa.Column("checkpoint_id", sa.Text, primary_key=True),
        sa.Column("task_id", sa.Text, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("task_path", sa.Text, nullable=False),
        sa.Column("value_type", sa.Text, nullable=False),
        sa.Column("value_hash", sa.String(64), nullable=False),
        sa.Column("written_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "graph_blobs",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    for table in (
        "graph_blobs",
        "graph_writes",
        "graph_channel_values",
        "graph_checkpoints",
        "graph_thread_owners",
    ):
        op.drop_table(table)

"""Working memory: contexts, units, review queue, canonization requests, lifecycle events.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "awmu_contexts",
        sa.Column("context_id", sa.Text, primary_key=True),
        sa.Column("updated_seq", sa.BigInteger, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_table(
        "awmu_units",
        sa.Column("unit_id", sa.Text, primary_key=True),
        sa.Column("context_id", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("created_seq", sa.BigInteger, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_awmu_units_context_status", "awmu_units", ["context_id", "status"])
    op.create_table(
        "awmu_reviews",
        sa.Column("review_id", sa.Text, primary_key=True),
        sa.Column("context_id", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_awmu_reviews_context_status", "awmu_reviews", ["context_id", "status"])
    op.create_table(
        "awmu_canon_requests",
        sa.Column("request_id", sa.Text, primary_key=True),
        sa.Column("context_id", sa.Text, nullable=False),
        sa.Column("unit_id", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_awmu_canon_context_status", "awmu_canon_requests", ["context_id", "status"])
    op.create_table(
        "awmu_events",
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("context_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("unit_id", sa.Text),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("ix_awmu_events_context_seq", "awmu_events", ["context_id", "seq"])


def downgrade() -> None:
    for table in ("awmu_events", "awmu_canon_requests", "awmu_reviews", "awmu_units", "awmu_contexts"):
        op.drop_table(table)

"""Pipeline runs: a run holds its user's memory still from its snapshot to its end.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pipeline_runs",
        sa.Column("run_id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("principal", sa.Text, nullable=False),
        sa.Column("began_seq", sa.BigInteger, nullable=False),
        sa.Column("ended_seq", sa.BigInteger),
    )
    op.create_index("ix_pipeline_runs_user_open", "pipeline_runs", ["user_id", "ended_seq"])


def downgrade() -> None:
    op.drop_table("pipeline_runs")

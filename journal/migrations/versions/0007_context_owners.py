"""Working-memory context owners: the principal that created each context (format-2 journals).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "awmu_context_owners",
        sa.Column("context_id", sa.Text, primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("created_seq", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("awmu_context_owners")

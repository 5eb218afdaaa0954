"""Access grants: capabilities given to principals by administrators.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "grants",
        sa.Column("principal", sa.Text, primary_key=True),
        sa.Column("capability", sa.Text, primary_key=True),
        sa.Column("scope", sa.Text, primary_key=True),
        sa.Column("granted_seq", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("grants")

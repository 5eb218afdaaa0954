"""State checkpoints (``journal.state_checkpoints``): the manifest of the state right after every N-th
entry, its pages and indexes stored in ``graph_blobs``, and the places changed since the last one.
Nothing is backfilled: a journal gets its first checkpoint at the next multiple of the interval.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "state_checkpoints",
        sa.Column("seq", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("manifest_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "state_checkpoint_dirty",
        sa.Column("tbl", sa.Text, primary_key=True),
        sa.Column("part", sa.Text, primary_key=True),
        sa.Column("row_key", sa.Text, primary_key=True),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("state_checkpoint_dirty")
    op.drop_table("state_checkpoints")

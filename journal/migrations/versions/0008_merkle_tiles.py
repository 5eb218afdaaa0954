"""Merkle tiles: the roots of complete blocks of 4096 leaves (``journal.tiles``), so that a proof reads a
few hundred values instead of every entry. The tiles of the entries already there are computed here.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from journal.tile_backfill import backfill_tiles

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "merkle_tiles",
        sa.Column("tile", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("root", sa.String(64), nullable=False),
    )
    backfill_tiles(op.get_bind())


def downgrade() -> None:
    op.drop_table("merkle_tiles")
